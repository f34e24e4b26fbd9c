#!/usr/bin/env python3
"""Regenerates the hostile corpus in this directory (see README.md).

Deterministic: the same files every run. Files whose name starts with
`real_` are cut down from the real log samples/traces/reasons/global_var
(made with real torch), then mutated; all others are HAND-MADE (not real
logs). Run from anywhere: python3 tests/hostile/generate.py
"""

import gzip
import hashlib
import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1] / "samples/traces/reasons/global_var/dedicated_log_torch_trace.log.gz"
PREFIX = b"V1121 12:55:33.381000 7550 torch/_dynamo/convert_frame.py:309] "
KEEP = {b'"str"', b'"dynamo_start"', b'"compilation_metrics"', b'"recompile_reasons"'}


def events(data):
    """(envelope line, [payload lines]) pairs, lines without their newline."""
    out = []
    for line in data.split(b"\n"):
        if line.startswith(b"\t") and out:
            out[-1][1].append(line)
        elif line:
            out.append((line, []))
    return out


def keep(envelope):
    head = envelope.split(b"] ", 1)[-1][:60]
    return any(head.startswith(b"{" + kind) for kind in KEEP) or b'"recompile_reasons"' in envelope[:300]


def join(evs, newline=b"\n"):
    return b"".join(env + newline + b"".join(p + newline for p in payload) for env, payload in evs)


def small_metrics(env):
    """compilation_metrics without its big fields (a config dump of ~40 KB)."""
    head, body = env.split(b"] ", 1)
    obj = json.loads(body)
    if "compilation_metrics" in obj:
        metrics = obj["compilation_metrics"]
        obj["compilation_metrics"] = {k: v for k, v in metrics.items() if len(json.dumps(v)) < 300}
        body = json.dumps(obj).encode()
    return head + b"] " + body


def snippet():
    """Only what guardscope reads: interned file names, dynamo_start,
    compilation_metrics (big fields dropped) and recompile_reasons
    (compiles 0/0 and 0/1)."""
    return [(small_metrics(env), p) for env, p in events(gzip.decompress(SOURCE.read_bytes())) if keep(env)]


def envelope(obj):
    return PREFIX + json.dumps(obj).encode()


def with_payload(obj, payload):
    obj = dict(obj, has_payload=hashlib.md5(payload).hexdigest())
    return envelope(obj) + b"\n" + b"".join(b"\t" + line + b"\n" for line in payload.split(b"\n"))


def write(name, data):
    (HERE / name).write_bytes(data)


def main():
    evs = snippet()
    plain = join(evs)
    write("real_snippet.log", plain)

    # NUL bytes: a line of NULs between events, and NULs inside 0/0's dynamo_start JSON.
    mutated = []
    for env, payload in evs:
        if b'"dynamo_start"' in env and b'"frame_compile_id": 0' in env:
            env = env.replace(b'"stack"', b'"st\x00\x00ack"', 1)
            mutated.append((b"\x00" * 64, []))
        mutated.append((env, payload))
    write("real_nul_bytes.log", join(mutated))

    # Invalid UTF-8 inside the file name interned for the user's script.
    write("real_invalid_utf8.log", plain.replace(b"global_var.py", b"global_\xff\xfe_var.py", 1))

    # Windows line endings everywhere.
    write("real_crlf.log", join(evs, b"\r\n"))

    # 0/1's events twice in a row (a log concatenated with part of itself).
    ones = [e for e in evs if b'"frame_compile_id": 1' in e[0]]
    write("real_duplicate_compile_ids.log", join(evs + ones))

    # 0/1's events before 0/0's (interned strings stay first).
    strs = [e for e in evs if e[0].split(b"] ", 1)[-1].startswith(b'{"str"')]
    zeros = [e for e in evs if b'"frame_compile_id": 0' in e[0]]
    write("real_out_of_order_ids.log", join(strs + ones + zeros))

    # Unknown event kinds among real ones.
    unknown = [
        (envelope({"future_event_from_torch_3": {"x": 1}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}), []),
        (envelope({"artifact": {"name": "brand_new_artifact", "encoding": "string"}}), []),
    ]
    write("real_unknown_kinds.log", join(evs[:3] + unknown + evs[3:]))

    # The recompile reason's payload edited after its md5 was taken.
    write("real_md5_mismatch.log", plain.replace(b"G['USE_FAST_PATH']", b"G['USE_FAST_PATX']", 1))

    # A gzip stream cut two thirds of the way through.
    gz = gzip.compress(plain, mtime=0)
    write("real_cut.log.gz", gz[: len(gz) * 2 // 3])

    # The last line has no newline and is cut inside its JSON.
    write("real_cut_mid_json.log", plain[: plain.rindex(b"\n", 0, len(plain) - 1) + 80])

    # 17 MiB lines (over the 16 MiB line cap), gzipped to a few dozen KB: an
    # envelope line, and the payload of an artifact guardscope skips.
    huge = b"x" * (17 << 20)
    huge_envelope = PREFIX + b'{"compilation_metrics": {"co_name": "' + huge + b'"}, "frame_id": 9, ' \
        b'"frame_compile_id": 0, "attempt": 0}\n'
    huge_payload = with_payload({"artifact": {"name": "big", "encoding": "string"}}, huge)
    write("real_huge_line.log.gz", gzip.compress(join(evs[:4]) + huge_envelope + huge_payload + join(evs[4:]), mtime=0))

    # HAND-MADE: known events whose fields have the wrong JSON types, then one good compile.
    bad = [
        {"dynamo_start": {"stack": "not a list"}, "frame_id": "zero", "frame_compile_id": 0, "attempt": 0},
        {"dynamo_start": {"stack": [{"line": "nine", "name": 5, "filename": [1]}]}, "frame_id": 1,
         "frame_compile_id": -1, "attempt": None},
        {"compilation_metrics": {"co_name": 5, "entire_frame_compile_time_s": "slow", "start_time": [1]},
         "frame_id": 1, "frame_compile_id": 0, "attempt": 0},
        {"compilation_metrics": "not an object", "frame_id": 2, "frame_compile_id": 0, "attempt": 0},
        {"str": "not a pair"},
        {"frame_id": 1e309, "frame_compile_id": 18446744073709551616, "dynamo_start": {"stack": []}},
        {"artifact": {"name": "recompile_reasons", "encoding": "json"}, "frame_id": 3, "frame_compile_id": 1},
    ]
    good = [
        {"dynamo_start": {"stack": [{"line": 3, "name": "good", "filename": "good.py"}]}, "frame_id": 7,
         "frame_compile_id": 0, "attempt": 0},
        {"compilation_metrics": {"co_name": "good", "co_filename": "good.py", "co_firstlineno": 3,
                                 "entire_frame_compile_time_s": 0.25, "start_time": 1795265733.0},
         "frame_id": 7, "frame_compile_id": 0, "attempt": 0},
    ]
    write("wrong_types.log", b"".join(envelope(e) + b"\n" for e in bad + good))

    # HAND-MADE: glog prefixes with empty, non-object and deeply nested JSON after them.
    lines = [PREFIX, PREFIX + b"{}", PREFIX + b"[]", PREFIX + b"null", PREFIX + b"\"str\"",
             PREFIX + b"[" * 10_000 + b"]" * 10_000, PREFIX + b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
             b"V1121 99:99:99.999999 -1 x.py:-1] {}", b"V"]
    write("odd_envelopes.log", b"\n".join(lines) + b"\n" + b"".join(envelope(e) + b"\n" for e in good))

    # HAND-MADE: payload lines with no envelope, then an envelope whose payload never comes.
    write(
        "orphan_and_missing_payloads.log",
        b"\tpayload with no envelope\n\t{\"x\": 1}\n"
        + envelope({"artifact": {"name": "recompile_reasons", "encoding": "json"}, "frame_id": 7,
                    "frame_compile_id": 1, "attempt": 0, "has_payload": "0" * 32}) + b"\n"
        + b"".join(envelope(e) + b"\n" for e in good),
    )

    # HAND-MADE: nothing but bytes that are not text.
    write("binary_noise.bin", bytes((i * 97 + 13) % 256 for i in range(4096)))

    # HAND-MADE: a gzip header and nothing else.
    write("gzip_header_only.log.gz", gzip.compress(b"", mtime=0)[:10])


if __name__ == "__main__":
    main()
