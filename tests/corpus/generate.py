"""Regenerate the real-world TORCH_TRACE corpus in tests/corpus/logs/.

Usage:
    python3 tests/corpus/generate.py \
        --python /opt/gs-torch215/bin/python --python /opt/gs-torch211/bin/python \
        [--workdir /home/user/proj] [--jobs 2] [--timeout 600] \
        [--scripts DIR] [--logs DIR] [NAME ...]

--scripts and --logs (default: tests/corpus/scripts and tests/corpus/logs)
point the same machinery at another corpus, e.g. tests/scenarios:

    python3 tests/corpus/generate.py --python /opt/gs-torch215/bin/python \
        --scripts tests/scenarios/scripts --logs tests/scenarios/logs

Each scenario is a small user script in tests/corpus/scripts/NAME.py. For every
scenario and every interpreter given with --python, the script is COPIED
verbatim to WORKDIR/NAME/train.py (so the paths in the log look like a user's
project: outside torch's tree and outside this repository; the line numbers are
those of the committed script) and run with that directory as cwd,
TORCH_TRACE pointing at a fresh temporary directory and PYTHONHASHSEED=0.

Each log torch writes is gzipped deterministically (mtime 0, no file name in
the header) into

    tests/corpus/logs/torch<VERSION>/NAME/dedicated_log_torch_trace[_rank_N].log.gz

(torch's random 8-character suffix is dropped), next to a meta.json with the
torch, transformers and Python versions, the backend, the workdir and the
script path. truth.json (the hand-checked ground truth) is never touched.
A failed run leaves its previous logs alone and is reported at the end;
its stdout/stderr tail is written to WORKDIR/NAME/run-torch<VERSION>.txt.

Standard library only.
"""

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
LOGS = HERE / "logs"
REPO = HERE.parent.parent

# torch appends tempfile.mkstemp's random suffix (8 chars from [a-z0-9_]).
RANDOM_SUFFIX = re.compile(r"_[a-z0-9_]{8}\.log$")
BACKEND = re.compile(r"""backend\s*=\s*["'](\w+)["']""")

PROBE = r"""
import json, platform
info = {"python": platform.python_version()}
import torch
info["torch"] = torch.__version__
try:
    import transformers
    info["transformers"] = transformers.__version__
except Exception as exc:  # noqa: BLE001
    info["transformers"] = None
    info["transformers_error"] = repr(exc)[:300]
print(json.dumps(info))
"""


def script_label(script):
    try:
        return str(script.resolve().relative_to(REPO))
    except ValueError:
        return str(script.resolve())


def all_names():
    return sorted(p.stem for p in SCRIPTS.glob("*.py") if not p.name.startswith("_"))


def probe(python):
    out = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def short_version(torch_version):
    # "2.15.0+cu128" -> "2.15.0"
    return torch_version.split("+")[0]


def gzip_into(src, target):
    with open(src, "rb") as fin, open(target, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
            shutil.copyfileobj(fin, gz)


def run_one(name, python, info, workdir, timeout):
    version = short_version(info["torch"])
    script = SCRIPTS / f"{name}.py"
    run_dir = Path(workdir) / name
    run_dir.mkdir(parents=True, exist_ok=True)
    train_py = run_dir / "train.py"
    shutil.copyfile(script, train_py)
    out_dir = LOGS / f"torch{version}" / name
    with tempfile.TemporaryDirectory(prefix="guardscope-corpus-") as tmp:
        env = dict(os.environ, TORCH_TRACE=tmp, PYTHONHASHSEED="0")
        env.pop("PYTHONPATH", None)
        try:
            proc = subprocess.run(
                [python, "train.py"],
                cwd=run_dir,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
            rc, output = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as exc:
            rc = "timeout"
            output = (exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        (run_dir / f"run-torch{version}.txt").write_text(f"rc={rc}\n{output[-20000:]}")
        logs = sorted(Path(tmp).rglob("*.log"))
        if rc != 0 or not logs:
            why = f"rc={rc}" if rc != 0 else "no TORCH_TRACE log written"
            tail = output.strip().splitlines()[-1:] or [""]
            return name, version, False, f"{why}: {tail[0][:300]}"
        if out_dir.exists():
            for old in out_dir.glob("*.log.gz"):
                old.unlink()
        out_dir.mkdir(parents=True, exist_ok=True)
        written = []
        for log in logs:
            target = out_dir / (RANDOM_SUFFIX.sub(".log", log.name) + ".gz")
            gzip_into(log, target)
            written.append(target.name)
    backend = BACKEND.search(script.read_text())
    meta = {
        "scenario": name,
        "torch": info["torch"],
        "transformers": info.get("transformers"),
        "python": info["python"],
        "backend": backend.group(1) if backend else None,
        "workdir": str(run_dir),
        "script": script_label(script),
        "run_as": str(train_py),
        "logs": written,
    }
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    return name, version, True, ", ".join(written)


def main():
    global SCRIPTS, LOGS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", action="append", required=True, help="interpreter of a venv with torch")
    ap.add_argument("--workdir", default="/home/user/proj")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run")
    ap.add_argument("--scripts", type=Path, default=None, help=f"scenario scripts directory (default {SCRIPTS})")
    ap.add_argument("--logs", type=Path, default=None, help=f"logs output directory (default {LOGS})")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if args.scripts is not None:
        SCRIPTS = args.scripts.resolve()
    if args.logs is not None:
        LOGS = args.logs.resolve()
    names = args.names or all_names()
    for n in names:
        if not (SCRIPTS / f"{n}.py").is_file():
            raise SystemExit(f"generate.py: no scenario {n}")
    tasks = []
    for python in args.python:
        info = probe(python)
        print(f"{python}: {info}", flush=True)
        tasks += [(n, python, info) for n in names]
    failures = []

    def work(task):
        n, python, info = task
        result = run_one(n, python, info, args.workdir, args.timeout)
        status = "ok" if result[2] else "FAILED"
        print(f"[torch{result[1]}] {n}: {status} {result[3]}", flush=True)
        return result

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, version, ok, detail in pool.map(work, tasks):
            if not ok:
                failures.append(f"torch{version} {name}: {detail}")
    if failures:
        print("\nfailed runs:\n  " + "\n  ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
