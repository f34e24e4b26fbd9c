"""One verdict everywhere, from Python: samples/steps/ddp (two real DDP
ranks on gloo, samples/scripts/ddp_steps.py) has rank 1 alone recompile for
a short batch. The loaded run's recompiles, its records and its gate give
the verdict `summary` gives (tests/one_verdict.rs compares the CLI's
surfaces): a problem, the rank recompiled alone."""

import json
import subprocess
import sys
from pathlib import Path

import guardscope

TRACE = Path(__file__).resolve().parents[2] / "samples/steps/ddp/trace"


def test_the_python_surfaces_give_summarys_verdict():
    summary = json.loads(
        subprocess.run(
            [sys.executable, "-m", "guardscope", "summary", "--json", str(TRACE)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    [expected] = summary["recompiles"]
    assert (expected["severity"], expected["evidence"]["kind"]) == ("problem", "rank_alone")
    run = guardscope.load(TRACE)
    [recompile] = run.recompiles
    assert (recompile.rank, recompile.compile_id, recompile.severity) == (1, "0/1", "problem")
    [record] = [r for r in run.to_records() if r["severity"] is not None]
    assert record["severity"] == "problem"
    [offense] = run.check().offending
    assert offense.severity == "problem"
