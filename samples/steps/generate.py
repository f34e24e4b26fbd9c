"""Regenerate samples/steps/: per-step records written by guardscope.StepLogger
during real runs of samples/scripts/collision.py (torch.compile, aot_eager).

Usage: python samples/steps/generate.py   (needs torch and guardscope installed:
`make install` puts both in .venv)

- collision.jsonl and collision_trace/: one run with both StepLogger and
  TORCH_TRACE, so `guardscope steps collision.jsonl --trace collision_trace`
  joins the two records of the same compiles.
- ranks/steps_rank_{0,1}.jsonl: the same script run as RANK=0 and RANK=1
  (two processes, no process group) with metrics turned on by rank 0 only,
  as when a logging callback runs on rank 0: rank 0 alone recompiles at
  step 12.
- mostly_compiling.jsonl: samples/scripts/mostly_compiling.py, where 9 of
  12 steps compile (a new sequence length each, dynamic=False): the median
  of all steps is a compile step, the steps without compiles are the base.
"""

import gzip
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from generate import neutral_scripts  # noqa: E402  (samples/generate.py: the same neutral path)


def run(scripts, env_extra, script="collision.py"):
    # One intra-op thread: on a busy machine a second thread's waits swamp
    # the steps that compile nothing (milliseconds), which the records compare with.
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", **env_extra)
    subprocess.run([sys.executable, str(scripts / script)], env=env, check=True, cwd=scripts)


def gzip_into(src, target):
    with open(src, "rb") as f, open(target, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
            shutil.copyfileobj(f, gz)


def main():
    with neutral_scripts() as scripts:
        record(scripts)
    print(f"wrote {HERE.relative_to(HERE.parent.parent)}")


def record(scripts):
    with tempfile.TemporaryDirectory(prefix="guardscope-steps-") as tmp:
        run(scripts, {"TORCH_TRACE": tmp, "GUARDSCOPE_STEPS": str(HERE / "collision.jsonl")})
        out = HERE / "collision_trace"
        if out.exists():
            shutil.rmtree(out)
        out.mkdir()
        logs = sorted(Path(tmp).rglob("*.log"))
        if len(logs) != 1:
            raise SystemExit(f"generate.py: expected one TORCH_TRACE log, found {len(logs)}")
        gzip_into(logs[0], out / "dedicated_log_torch_trace.log.gz")
    ranks = HERE / "ranks"
    ranks.mkdir(exist_ok=True)
    for rank in (0, 1):
        run(
            scripts,
            {
                "RANK": str(rank),
                "COLLISION_METRICS_RANK": "0",
                "GUARDSCOPE_STEPS": str(ranks / f"steps_rank_{rank}.jsonl"),
            }
        )
    run(scripts, {"GUARDSCOPE_STEPS": str(HERE / "mostly_compiling.jsonl")}, "mostly_compiling.py")


if __name__ == "__main__":
    main()
