"""A log of N distinct frames, each compiled once (a dynamo_start and a
compilation_metrics line, ~550 bytes a frame): what a fleet's merged logs
look like to the model when every rank compiles its own functions. For the
memory per frame of summary, report, check and watch (docs/performance.md).

Usage: python3 bench/make_frames_log.py N OUT

    python3 bench/make_frames_log.py 1000000 /tmp/frames.log
    /usr/bin/time -f "%e s, %M KB" target/release/guardscope summary /tmp/frames.log > /dev/null
"""

import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "w") as out:
        w = out.write
        w('V1121 12:54:08.000000 5988 torch/_logging/structured.py:28] {"str": ["/job/train.py", 1]}\n')
        for i in range(n):
            line = 10 + i % 1000
            w(
                "V1121 12:54:08.823000 5988 torch/_dynamo/convert_frame.py:309] "
                f'{{"dynamo_start": {{"stack": [{{"line": {line}, "name": "f{i}", "filename": 1}}]}}, '
                f'"frame_id": {i}, "frame_compile_id": 0, "attempt": 0}}\n'
            )
            w(
                "V1121 12:54:10.361000 5988 torch/_dynamo/utils.py:2132] "
                f'{{"compilation_metrics": {{"compile_id": "{i}/0", "co_name": "f{i}", "co_filename": "/job/train.py", '
                f'"co_firstlineno": {line}, "start_time": 1795265648.822351, "entire_frame_compile_time_s": 0.01, '
                f'"fail_type": null, "restart_reasons": []}}, "frame_id": {i}, "frame_compile_id": 0, "attempt": 0}}\n'
            )


if __name__ == "__main__":
    main()
