"""Record the text-log corpus in tests/textlogs/logs/: each scenario run once
with BOTH TORCH_TRACE and TORCH_LOGS set, so that the job's stderr (the text
log) and its TORCH_TRACE logs describe the same compiles.

Usage:
    python3 tests/textlogs/record.py --python .venv/bin/python [--python .venv-oldest/bin/python] [NAME ...]

Each scripts/NAME.py is copied to WORKDIR/NAME/train.py (default workdir
/tmp/gs-textlogs) and run there with PYTHONHASHSEED=0. Written:

    logs/torch<VERSION>/NAME/stderr.txt                  the job's stderr as it was
    logs/torch<VERSION>/NAME/trace/dedicated_log_torch_trace[_rank_N].log.gz
    logs/torch<VERSION>/NAME/meta.json                   versions, TORCH_LOGS, exit code

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
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
LOGS = HERE / "logs"
RANDOM_SUFFIX = re.compile(r"_[a-z0-9_]{8}\.log$")

# The logs each scenario asks for; the default is what most users set.
TORCH_LOGS = {"graph_break_recompile": "recompiles,graph_breaks", "guards_dynamic": "recompiles,guards"}
# Scenarios whose job is meant to die (the limit as a hard failure).
FAILS = {"limit_fullgraph"}


def torch_version(python):
    out = subprocess.run([python, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True)
    return out.stdout.strip().split("+")[0]


def record(python, version, name, workdir):
    work = Path(workdir) / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(SCRIPTS / f"{name}.py", work / "train.py")
    trace = Path(tempfile.mkdtemp(prefix="gs-textlog-trace-"))
    logs = TORCH_LOGS.get(name, "recompiles")
    env = dict(os.environ, TORCH_TRACE=str(trace), TORCH_LOGS=logs, PYTHONHASHSEED="0")
    run = subprocess.run([python, "train.py"], cwd=work, env=env, capture_output=True, text=True, timeout=900)
    if (run.returncode != 0) != (name in FAILS):
        print(f"{name} (torch {version}): exit {run.returncode}\n{run.stderr[-2000:]}", file=sys.stderr)
        return False
    out = LOGS / f"torch{version}" / name
    shutil.rmtree(out, ignore_errors=True)
    (out / "trace").mkdir(parents=True)
    (out / "stderr.txt").write_text(run.stderr)
    for log in sorted(trace.glob("*.log")):
        target = out / "trace" / (RANDOM_SUFFIX.sub(".log", log.name) + ".gz")
        with open(log, "rb") as src, open(target, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                shutil.copyfileobj(src, gz)
    shutil.rmtree(trace, ignore_errors=True)
    meta = {"torch": version, "python": sys.version.split()[0], "TORCH_LOGS": logs, "exit_code": run.returncode, "script": f"tests/textlogs/scripts/{name}.py", "workdir": str(work)}
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"{name} (torch {version}): {len(run.stderr.splitlines())} stderr lines")
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", action="append", required=True)
    ap.add_argument("--workdir", default="/tmp/gs-textlogs")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    names = args.names or sorted(p.stem for p in SCRIPTS.glob("*.py"))
    ok = True
    for python in map(os.path.abspath, args.python):
        version = torch_version(python)
        for name in names:
            ok &= record(python, version, name, args.workdir)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
