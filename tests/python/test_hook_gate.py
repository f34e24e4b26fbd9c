"""The hook gate on a live run: a model whose forward loops over its blocks,
with a metrics hook on each block, run under TORCH_TRACE with real
torch.compile, plain and with the hook decorated with @torch._dynamo.disable
(guardscope's advice for a hook that reads mutable state). The decorated run
adds no recompile but makes Dynamo skip forward: the gate must fail and say
that forward runs eagerly, at which line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import guardscope

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "samples/scripts"


def record(script, trace_dir):
    env = dict(os.environ, TORCH_TRACE=str(trace_dir), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, str(SCRIPTS / script)],
        cwd=SCRIPTS,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return trace_dir


def test_a_hook_disabled_inside_a_loop_fails_the_gate_and_names_forward(tmp_path):
    plain = record("hook_loop.py", tmp_path / "plain")
    disabled = record("hook_loop_disabled.py", tmp_path / "disabled")
    verdict = guardscope.load(disabled).check(baseline=guardscope.load(plain))
    assert not verdict
    assert not verdict.offending, "the decorator adds no recompile"
    eager = verdict.data["eager_frames"]
    assert [(e["frame"]["function"], e["frame"]["line"], e["why"]) for e in eager] == [("forward", 43, "skipped")]
    assert eager[0]["user_line"].endswith("_hook_loop_model.py:46")
    assert eager[0]["per_call"] == "it runs eagerly every call"
    assert verdict.message.startswith("FAIL: 1 frame runs eagerly that the baseline compiled (allowed: 0): forward")
    # The CLI says the same, and the summary names the frame as not compiled.
    out = subprocess.run(
        [sys.executable, "-m", "guardscope", "check", "-q", str(disabled), "--baseline", str(plain), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1, out.stderr
    assert json.loads(out.stdout)["eager_frames"][0]["why"] == "skipped"
    summary = subprocess.run(
        [sys.executable, "-m", "guardscope", "summary", "-q", str(disabled)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
    )
    assert "forward (" in summary.stdout and "_hook_loop_model.py:43) is not compiled: it runs eagerly every call" in summary.stdout
    # The plain run compiles forward as one graph: nothing runs eagerly.
    assert guardscope.load(plain).data["eager_frames"] == []
