"""One name per frame (issue 38, item 7): a compiled ``nn.Sequential`` runs
through torch's wrapper ``inner`` (external_utils.py); summary, steps, the
StepLogger's warning and its compile events all call it by the name the
Rust core gives it, never by torch's wrapper alone."""

import json
import os
import subprocess
import sys

import pytest

SCRIPT = """
import logging, torch, guardscope
logging.basicConfig(level=logging.WARNING)
model = torch.compile(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU()), backend="eager", dynamic=False)
log = guardscope.StepLogger({steps!r})
for step, rows in enumerate([2, 2, 3]):
    with log.step(step):
        model(torch.ones(rows, 4))
log.close()
"""


def run(*args):
    out = subprocess.run([sys.executable, "-m", "guardscope", *args], capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def sequential(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("names")
    steps, trace = tmp / "steps.jsonl", tmp / "trace"
    env = dict(os.environ, TORCH_TRACE=str(trace), COLUMNS="200")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(steps=str(steps))], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return steps, trace, done.stderr


def test_a_compiled_sequential_has_one_name_in_summary_steps_events_and_warnings(sequential):
    steps, trace, stderr = sequential
    frames = json.loads(run("summary", "--json", str(trace)))["frames"]
    assert [f["function"] for f in frames] == ["inner"]
    name = "Sequential via inner"
    assert name in run("summary", str(trace))
    events = [c for line in steps.read_text().splitlines() for c in json.loads(line)["compiles"]]
    assert [(e["compile_id"], e["name"], e["function"]) for e in events] == [
        ("0/0", name, "inner"),
        ("0/1", name, "inner"),
    ]
    warning = next(line for line in stderr.splitlines() if "recompiled" in line)
    assert f"0/1 {name} (external_utils.py:" in warning, warning
    assert f"0/1 {name} (external_utils.py:" in run("steps", str(steps))
    # The trace fills in what a record lacks under the same name.
    assert f"0/1 {name} (external_utils.py:" in run("steps", str(steps), "--trace", str(trace))
