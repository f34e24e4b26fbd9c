#!/usr/bin/env python3
"""PyTorch's own recompile tests as an oracle for guardscope's judgement.

Runs each test method of local copies of PyTorch's recompile tests (which the
user fetches; nothing of PyTorch's is in this repository) in a process of its
own under TORCH_TRACE, then scores `guardscope summary --json` on each trace
against bench/pytorch_oracle_truth.json (our own words). See
docs/judgement-oracle.md.

    bench/pytorch_oracle.py --src /tmp/oracle/src --python .venv/bin/python \
        --guardscope target/release/guardscope [--only REGEX] [--record-only]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from oracle_score import score

HERE = Path(__file__).resolve().parent
TEST_FILES = ("test_recompiles.py", "test_recompile_ux.py", "test_misc_guards.py")


def discover(src: Path) -> list[str]:
    """Test ids `file.py::Class::method` in source order, read with ast so
    that a copy which does not import on this torch is still listed."""
    ids = []
    for name in TEST_FILES:
        path = src / name
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(), str(path))
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_"):
                    ids.append(f"{name}::{cls.name}::{fn.name}")
    return ids


def outcome(rc: int, text: str) -> str:
    # unittest's last lines: "OK", "OK (skipped=1)", "FAILED (...)"; an import
    # error of the module reads as a failed test named after the module.
    if "ImportError" in text and "Failed to import test module" in text:
        return "import_error"
    if re.search(r"^OK \(skipped=1\)", text, re.M):
        return "skipped"
    if rc == 0 and re.search(r"^OK\b", text, re.M):
        return "passed"
    if rc == 124:
        return "timeout"
    return "failed"


def run_test(tid: str, args: argparse.Namespace, out: Path) -> dict:
    fname, cls, meth = tid.split("::")
    trace = out / "traces" / f"{Path(fname).stem}.{meth}"
    shutil.rmtree(trace, ignore_errors=True)
    trace.mkdir(parents=True)
    env = dict(os.environ)
    env.update(
        TORCH_TRACE=str(trace),
        PYTHONHASHSEED="0",
        CUDA_VISIBLE_DEVICES="",
        PYTHONDONTWRITEBYTECODE="1",
    )
    extra = [str(args.src)] + ([args.pythonpath] if args.pythonpath else [])
    env["PYTHONPATH"] = os.pathsep.join(extra + [env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep
    )
    cmd = [args.python, "-m", "unittest", "-v", f"{Path(fname).stem}.{cls}.{meth}"]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(
            cmd,
            cwd=args.src,
            env=env,
            capture_output=True,
            text=True,
            timeout=args.timeout,
        )
        rc, text = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as e:
        rc, text = 124, str(e.stdout or "") + str(e.stderr or "")
    (out / "logs").mkdir(exist_ok=True)
    (out / "logs" / f"{Path(fname).stem}.{meth}.txt").write_text(text)
    return {
        "test": tid,
        "trace": str(trace),
        "outcome": outcome(rc, text),
        "seconds": round(time.monotonic() - t0, 1),
        "recompile_reasons": count_reasons(trace),
    }


def count_reasons(trace: Path) -> int:
    """Recompile-reason artifacts in the raw trace, read without guardscope
    (so that recording never runs the tool under test)."""
    n = 0
    for f in trace.glob("*.log"):
        with open(f, errors="replace") as fh:
            n += sum(1 for line in fh if '"name": "recompile_reasons"' in line)
    return n


def guardscope_json(gs: str, trace: Path) -> dict | str:
    proc = subprocess.run(
        [gs, "summary", "--json", str(trace)], capture_output=True, text=True
    )
    if not proc.stdout.strip():
        return f"guardscope rc {proc.returncode}: {proc.stderr.strip()[:300]}"
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        return f"guardscope output not JSON: {e}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", type=Path, required=True, help="local copies of the tests")
    ap.add_argument("--python", required=True, help="the Python (with torch) to run them")
    ap.add_argument("--guardscope", default=str(HERE.parent / "target/release/guardscope"))
    ap.add_argument("--truth", type=Path, default=HERE / "pytorch_oracle_truth.json")
    ap.add_argument("--out", type=Path, default=Path("/tmp/pytorch_oracle"))
    ap.add_argument("--label", help="subfolder of --out (default: the torch version)")
    ap.add_argument("--only", help="regex on the test id file.py::Class::method")
    ap.add_argument("--pythonpath", help="extra import path for the tests (expecttest)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per test")
    ap.add_argument("--record-only", action="store_true", help="run the tests, not guardscope")
    ap.add_argument("--rescore", action="store_true", help="reuse the traces of a previous run")
    ap.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = ap.parse_args()
    args.src = args.src.resolve()
    # The tests run with cwd=--src: relative paths are made absolute, but not
    # resolved (a venv's python is a symlink whose target is outside the venv).
    for name in ("python", "guardscope", "pythonpath"):
        value = getattr(args, name)
        if value and os.sep in value:
            setattr(args, name, os.path.abspath(value))

    version = subprocess.run(
        [args.python, "-c", "import torch; print(torch.__version__)"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    out = args.out / (args.label or version.split("+")[0])
    out.mkdir(parents=True, exist_ok=True)
    ids = discover(args.src)
    if args.only:
        ids = [t for t in ids if re.search(args.only, t)]
    if not ids:
        print(f"no test under {args.src} matches", file=sys.stderr)
        return 2

    runs_file = out / "runs.json"
    if args.rescore:
        if not runs_file.exists():
            print(f"--rescore: no {runs_file}; run without --rescore first", file=sys.stderr)
            return 2
        runs = [r for r in json.loads(runs_file.read_text()) if r["test"] in ids]
    else:
        runs = []
        for tid in ids:
            r = run_test(tid, args, out)
            print(f"{r['outcome']:13} {r['seconds']:6.1f}s  reasons={r['recompile_reasons']:3}  {tid}",
                  file=sys.stderr, flush=True)
            runs.append(r)
        runs_file.write_text(json.dumps(runs, indent=1))
    if args.record_only:
        return 0

    truth = json.loads(args.truth.read_text())
    for r in runs:
        r["guardscope"] = guardscope_json(args.guardscope, Path(r["trace"]))
    report = score(runs, truth, version)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(report["text"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
