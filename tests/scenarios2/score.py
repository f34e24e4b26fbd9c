#!/usr/bin/env python3
"""Score guardscope's judgement against the blind truth of tests/scenarios2.

The truth (truth.json beside each log) was written from the script and the
raw log by someone who never ran guardscope on them; this scorer is kept
apart from the Rust tests so that the figures in a closing note come from
code that is not the test suite's own.

    python3 tests/scenarios2/score.py [--guardscope PATH] [--set tests/scenarios3] [--verbose]

For every recompile of every scenario and version it compares category,
owner, severity, the cause entry, the user's line (the train.py line the
guard names, else the line that called the compiled code; none when the
truth says the value is read only inside torch or a library) and the fix (one of fix_must_contain, none of
fix_must_not_contain). The culprit is free text on both sides and is not
scored here. Prints one line per miss with --verbose, then the totals.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIELDS = ("category", "owner", "severity", "cause_entry", "line", "fix")


def user_line(source):
    """`/home/user/proj/S/train.py:18` -> `train.py:18`; other files -> None."""
    if not source:
        return None
    m = re.search(r"(?:^|/)train\.py:(\d+)$", source)
    return f"train.py:{m.group(1)}" if m else None


def line_right(want, cause, ours):
    """The user's line guardscope shows: the guard's own line when it is in
    the user's file, else the line that called the compiled code (the
    `dynamo_start` caller, or when that stack holds none, the caller that
    `user_line` takes from another stack of the compile; where the guard
    names no line, the line the compiled graph read the value at, when
    guardscope shows it). A truth of None
    (the value is read only inside torch or a library) wants no user line
    from the guard."""
    at = user_line(cause.get("source"))
    shown = ours.get("user_line") or {}
    if at is None and shown.get("from") == "graph":
        # The guard names no line; guardscope shows where the compiled
        # graph first read the value.
        at = user_line(shown.get("site"))
    if want is None:
        return at is None
    if at is not None:
        return at == want
    caller = user_line(cause.get("called_from"))
    if caller is None and (ours.get("user_line") or {}).get("from") == "symbol_stack":
        caller = user_line(ours["user_line"]["site"])
    return caller == want


def score_one(truth, ours):
    cause = ours.get("cause") or {}
    # The recompile's fix (`fix`; as `cause.advice` where the log gives a
    # cause, and also where it gives none).
    advice = (ours.get("fix") or cause.get("advice") or "").lower()
    must = [m.lower() for m in truth.get("fix_must_contain") or []]
    never = [m.lower() for m in truth.get("fix_must_not_contain") or []]
    got = {
        "category": cause.get("category") == truth["category"],
        "owner": ours.get("owner") == truth["owner"],
        "severity": ours.get("severity") == truth["severity"],
        "cause_entry": truth.get("cause_entry") is None or ours.get("cause_entry") == truth["cause_entry"],
        "line": line_right(truth.get("line"), cause, ours),
        "fix": (not must or any(m in advice for m in must)) and not any(n in advice for n in never),
    }
    detail = {
        "category": cause.get("category"),
        "owner": ours.get("owner"),
        "severity": ours.get("severity"),
        "cause_entry": ours.get("cause_entry"),
        "line": (
            user_line(cause.get("source")),
            user_line(cause.get("called_from")),
            (ours.get("user_line") or {}).get("from"),
        ),
        "fix": ours.get("fix") or cause.get("advice"),
    }
    return got, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--guardscope", default=str(HERE.parents[1] / "target/debug/guardscope"))
    ap.add_argument("--set", type=Path, default=HERE, help="the held-out set's folder (default: tests/scenarios2)")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    totals = {f: 0 for f in FIELDS}
    full = n = 0
    for truth_path in sorted(args.set.glob("logs/*/*/truth.json")):
        truth = json.loads(truth_path.read_text())
        where = f"{truth_path.parent.parent.name}/{truth_path.parent.name}"
        out = subprocess.run(
            [args.guardscope, "summary", str(truth_path.parent), "--json"],
            capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"},
        )
        try:
            ours = json.loads(out.stdout)["recompiles"]
        except (ValueError, KeyError):
            print(f"{where}: guardscope failed: {out.stderr.strip()[:200]}")
            n += len(truth["recompiles"])
            continue
        used = [False] * len(ours)
        for t in truth["recompiles"]:
            n += 1
            i = next((i for i, r in enumerate(ours) if not used[i] and r["compile_id"] == t["compile_id"]), None)
            if i is None:
                print(f"{where} {t['compile_id']}: not reported")
                continue
            used[i] = True
            got, detail = score_one(t, ours[i])
            for f in FIELDS:
                totals[f] += got[f]
            full += all(got.values())
            if args.verbose and not all(got.values()):
                for f in FIELDS:
                    if not got[f]:
                        want = t.get(f) if f != "fix" else t.get("fix_must_contain")
                        print(f"{where} {t['compile_id']} {f}: ours {detail[f]!r}, truth {want!r}")
    print(" ".join(f"{f} {totals[f]}/{n}" for f in FIELDS))
    print(f"all right: {full}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
