"""A job's stderr of SIZE_MB megabytes for the text-log benchmark: the
lines a training job prints (progress bars redrawn with carriage returns,
loss lines, a warning now and then) with the recorded Dynamo lines of a
real job (tests/textlogs/logs/torch2.15.0/hook_flag_flip/stderr.txt, a few
KB) in the middle, as TORCH_LOGS=recompiles leaves them.

    python3 bench/make_job_log.py SIZE_MB OUT
"""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DYNAMO = REPO / "tests/textlogs/logs/torch2.15.0/hook_flag_flip/stderr.txt"


def chunk(start):
    lines = []
    for step in range(start, start + 1000):
        bar = "#" * (step % 30)
        lines.append(f"\r{step % 100:3d}%|{bar:<30}| {step}/100000 [01:23<04:56, 12.34it/s, loss={1 / (step + 1):.5f}]")
        if step % 10 == 0:
            lines.append(f"\nepoch {step // 1000} step {step} loss {1 / (step + 1):.6f} lr 0.000300 grad_norm 1.2345 tokens/s 123456\n")
        if step % 997 == 0:
            lines.append("/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py:123: UserWarning: This DataLoader will create 8 worker processes\n")
    return "".join(lines)


def main():
    size = int(sys.argv[1]) << 20
    out = Path(sys.argv[2])
    dynamo = DYNAMO.read_text()
    written, step, placed = 0, 0, False
    with open(out, "w") as f:
        while written < size:
            text = chunk(step)
            step += 1000
            f.write(text)
            written += len(text)
            if not placed and written >= size // 2:
                f.write("\n" + dynamo)
                written += len(dynamo) + 1
                placed = True
        f.write("\n")


if __name__ == "__main__":
    main()
