"""The installed package: console script, Python entry point, and a real
torch.compile run whose TORCH_TRACE log guardscope must explain."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import guardscope

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("guardscope")


def run_cli(*args):
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=120)


def test_console_script_is_installed_and_summarizes_the_collision_sample():
    out = run_cli("summary", ROOT / "samples/traces/collision", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    [frame] = summary["frames"]
    assert [c["compile_id"] for c in frame["compiles"]] == ["0/0", "0/1", "0/2"]
    assert [r["compile_id"] for r in summary["recompiles"]] == ["0/1", "0/2"]


def test_python_main_returns_the_cli_exit_code(tmp_path, capfd):
    assert guardscope.main(["summary", str(tmp_path / "missing")]) == 2
    assert "no such file or directory" in capfd.readouterr().err
    assert guardscope.__version__


TRAINING_SCRIPT = textwrap.dedent(
    """
    import torch

    USE_BIAS = False

    @torch.compile(backend="aot_eager")
    def step(x):
        if USE_BIAS:
            return x * 2 + 1
        return x * 2

    step(torch.ones(4))
    USE_BIAS = True
    step(torch.ones(4))
    """
)


def test_real_compile_recompile_is_found_with_its_guard_and_source_line(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAINING_SCRIPT)
    trace_dir = tmp_path / "trace"
    env = dict(os.environ, TORCH_TRACE=str(trace_dir))
    subprocess.run([sys.executable, str(script)], check=True, env=env, cwd=tmp_path, timeout=300)

    out = run_cli("summary", trace_dir, "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    [recompile] = summary["recompiles"]
    assert recompile["compile_id"] == "0/1"
    assert recompile["duration_s"] > 0
    [reason] = recompile["reasons"]
    assert reason["entry"] == "0/0"
    assert reason["guard"] == "G['USE_BIAS'] == False"
    # Line 8 of the script is `if USE_BIAS:`.
    assert reason["source"].endswith("train.py:8")
    assert summary["problems"]["count"] == 0

    text = run_cli("summary", trace_dir)
    assert text.returncode == 0
    assert "0/1" in text.stdout and "G['USE_BIAS'] == False" in text.stdout


def test_an_internal_error_returns_3_with_one_line_and_the_interpreter_lives_on(capfd, monkeypatch):
    monkeypatch.setenv("GUARDSCOPE_DEBUG_PANIC", "1")  # a test-only switch: the CLI panics on purpose
    monkeypatch.setenv("RUST_BACKTRACE", "1")
    assert guardscope.main(["summary", str(ROOT / "samples/traces/collision")]) == 3
    [line] = capfd.readouterr().err.splitlines()
    assert line.startswith("guardscope: internal error (a bug: deliberate panic") and "issue tracker" in line, line
    monkeypatch.delenv("GUARDSCOPE_DEBUG_PANIC")
    assert guardscope.main(["summary", str(ROOT / "samples/traces/collision")]) == 0, "the next run is unaffected"
    out = run_cli_with_env({"GUARDSCOPE_DEBUG_PANIC": "1"}, "summary", ROOT / "samples/traces/collision")
    assert out.returncode == 3 and len(out.stderr.splitlines()) == 1, out.stderr


def run_cli_with_env(env, *args):
    return subprocess.run(
        [str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=120, env=dict(os.environ, **env)
    )


def interrupted(command, tmp_path):
    """Starts `command ... watch DIR` (DIR not yet created, so the CLI says it
    is waiting: proof that Rust, not Python's start-up, is running), sends
    SIGINT and returns how it ended and after how long."""
    import signal
    import time

    proc = subprocess.Popen(
        [*command, "watch", str(tmp_path / "not-yet")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = proc.stderr.readline()
        assert "waiting for" in line, line
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=10)
        return code, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_ctrl_c_ends_the_console_script_like_the_binary(tmp_path):
    # Killed by SIGINT, as the cargo binary is: Popen reports -2, a shell 130.
    # Before, Python's handler only set a flag and `watch` ran on.
    for command in ([str(SCRIPT)], [sys.executable, "-m", "guardscope"]):
        code, seconds = interrupted(command, tmp_path)
        assert code == -2, (command, code)
        assert seconds < 5, (command, seconds)


def test_the_library_entry_keeps_the_callers_sigint_handler(tmp_path):
    import signal

    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGINT, mine)
    try:
        assert guardscope.main(["summary", str(tmp_path / "missing")]) == 2
        assert signal.getsignal(signal.SIGINT) is mine
    finally:
        signal.signal(signal.SIGINT, previous)


def test_python_names_a_line_as_the_cli_does(monkeypatch, tmp_path):
    # One copy of the path display (src/report/paths.rs), called by the
    # helpers' messages through the extension.
    from guardscope._native import display_site

    monkeypatch.chdir(tmp_path)
    assert display_site(f"{tmp_path}/proj/train.py:16") == "proj/train.py:16"
    assert display_site("/v/lib/python3.11/site-packages/torch/optim/sgd.py:120") == "torch/optim/sgd.py:120"
    assert display_site("/src/pytorch/torch/nn/modules/linear.py:9") == "torch/nn/modules/linear.py:9"
    assert display_site("/nowhere/near/train.py:3") == "/nowhere/near/train.py:3"
    assert display_site("<stdin>") == "<stdin>"
