"""Regenerate the sample TORCH_TRACE logs by running the scripts in samples/scripts/.

Usage: python samples/generate.py [NAME ...]

NAME is a script path relative to samples/scripts/ without ".py" (for example
"collision" or "reasons/dtype"); with no NAME every script is run. Each script
runs in its own process with TORCH_TRACE pointing at a fresh directory; the
logs it writes are gzipped (deterministically, mtime 0) into
samples/traces/NAME/, replacing what was there, together with a meta.json
that records the torch and Python versions that produced them.
"""

import gzip
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
TRACES = HERE / "traces"

# torch appends a random suffix to each log name (tempfile.mkstemp: 8 characters
# from [a-z0-9_], so it can contain "_"); drop it so regenerating a sample does
# not churn file names in git.
RANDOM_SUFFIX = re.compile(r"_[a-z0-9_]{8}\.log$")


def all_names():
    return sorted(
        str(p.relative_to(SCRIPTS).with_suffix(""))
        for p in SCRIPTS.rglob("*.py")
        if not p.name.startswith("_")
    )


def torch_version():
    out = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def generate(name, version):
    script = SCRIPTS / f"{name}.py"
    if not script.is_file():
        raise SystemExit(f"generate.py: no script {script}")
    out_dir = TRACES / name
    with tempfile.TemporaryDirectory(prefix="guardscope-sample-") as tmp:
        env = dict(os.environ, TORCH_TRACE=tmp, PYTHONHASHSEED="0")
        print(f"[{name}] running {script.relative_to(HERE.parent)}", flush=True)
        subprocess.run([sys.executable, str(script)], env=env, check=True, cwd=SCRIPTS)
        logs = sorted(Path(tmp).rglob("*.log"))
        if not logs:
            raise SystemExit(f"generate.py: {name} wrote no TORCH_TRACE log")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        out_dir.mkdir(parents=True)
        for log in logs:
            target = out_dir / (RANDOM_SUFFIX.sub(".log", log.name) + ".gz")
            with open(log, "rb") as src, open(target, "wb") as raw:
                with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
                    shutil.copyfileobj(src, gz)
            print(f"[{name}] wrote {target.relative_to(HERE.parent)}", flush=True)
    meta = {
        "script": str(script.relative_to(HERE.parent)),
        "torch": version,
        "python": platform.python_version(),
    }
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")


def main(argv):
    names = argv or all_names()
    version = torch_version()
    for name in names:
        generate(name, version)


if __name__ == "__main__":
    main(sys.argv[1:])
