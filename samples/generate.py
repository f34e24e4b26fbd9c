"""Regenerate the sample TORCH_TRACE logs by running the scripts in samples/scripts/.

Usage: python samples/generate.py [NAME ...]

NAME is a script path relative to samples/scripts/ without ".py" (for example
"collision" or "reasons/dtype"); with no NAME every script is run. Each script
runs in its own process with TORCH_TRACE pointing at a fresh directory; the
logs it writes are gzipped (deterministically, mtime 0) into
samples/traces/NAME/, replacing what was there, together with a meta.json
that records the torch and Python versions that produced them.

The scripts run from a copy of samples/scripts/ at CHECKOUT, removed
afterwards, so the logs name that path rather than the checkout of whoever
regenerated them.
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
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
TRACES = HERE / "traces"

# torch appends a random suffix to each log name (tempfile.mkstemp: 8 characters
# from [a-z0-9_], so it can contain "_"); drop it so regenerating a sample does
# not churn file names in git.
RANDOM_SUFFIX = re.compile(r"_[a-z0-9_]{8}\.log$")

# Torch logs every user file by its full path. A path that exists in nobody's
# checkout lets guardscope show each file from the clone it runs in
# (samples/scripts/... from the clone's root); a path that exists on the
# reader's machine is taken as the file meant.
CHECKOUT = Path("/tmp/guardscope-checkout")


@contextmanager
def neutral_scripts():
    """samples/scripts/ copied to CHECKOUT/samples/scripts/ while the block runs."""
    if CHECKOUT.exists():
        shutil.rmtree(CHECKOUT)
    scripts = CHECKOUT / "samples" / "scripts"
    shutil.copytree(SCRIPTS, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    try:
        yield scripts
    finally:
        shutil.rmtree(CHECKOUT)


# Scripts that samples/steps/generate.py runs for their StepLogger records;
# their traces are not samples.
STEPS_ONLY = {"mostly_compiling"}


def all_names():
    return sorted(
        name
        for name in (str(p.relative_to(SCRIPTS).with_suffix("")) for p in SCRIPTS.rglob("*.py"))
        if not Path(name).name.startswith("_") and name not in STEPS_ONLY
    )


def torch_version():
    out = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def generate(name, version, scripts):
    script = SCRIPTS / f"{name}.py"
    if not script.is_file():
        raise SystemExit(f"generate.py: no script {script}")
    out_dir = TRACES / name
    with tempfile.TemporaryDirectory(prefix="guardscope-sample-") as tmp:
        env = dict(os.environ, TORCH_TRACE=tmp, PYTHONHASHSEED="0")
        print(f"[{name}] running {script.relative_to(HERE.parent)}", flush=True)
        subprocess.run([sys.executable, str(scripts / f"{name}.py")], env=env, check=True, cwd=scripts)
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
        "recorded_in": str(CHECKOUT),
    }
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")


def main(argv):
    names = argv or all_names()
    version = torch_version()
    with neutral_scripts() as scripts:
        for name in names:
            generate(name, version, scripts)


if __name__ == "__main__":
    main(sys.argv[1:])
