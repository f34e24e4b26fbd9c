"""The pytest plugin, run on real inner tests with pytester: real
torch.compile in them; a test that recompiles fails with the classified
cause in its failure text, one that does not passes."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]

INNER = '''
import logging

import pytest
import torch

import guardscope


def compiled_linear():
    torch._dynamo.reset()
    model = torch.nn.Linear(4, 4)
    return model, torch.compile(model, backend="eager")


@pytest.mark.no_recompiles
def test_marked_and_recompiles():
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    model.double()
    compiled(torch.randn(2, 4).double())


@pytest.mark.no_recompiles
def test_marked_and_steady():
    model, compiled = compiled_linear()
    for _ in range(3):
        compiled(torch.randn(2, 4))


@pytest.mark.no_recompiles(allow=["dtype"])
def test_marked_and_allowed():
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    model.double()
    compiled(torch.randn(2, 4).double())


@pytest.mark.no_recompiles(warmup_steps=2)
def test_fixture_with_warmup_recompiles_after_it(compile_budget):
    model, compiled = compiled_linear()
    for step, dtype in enumerate((torch.float32, torch.float64, torch.float16)):
        compile_budget.step(step)
        model.to(dtype)
        compiled(torch.randn(2, 4, dtype=dtype))
    assert len(compile_budget.recompiles) == 1


def test_fixture_within_budget(compile_budget):
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    compiled(torch.randn(2, 4))
    assert compile_budget.recompiles == []


def test_caplog_holds_no_trace_events(caplog):
    caplog.set_level(logging.DEBUG)
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    model.double()
    compiled(torch.randn(2, 4).double())
    assert [r.name for r in caplog.records if r.name.startswith("torch.__trace")] == []


@pytest.mark.no_recompiles
def test_marked_and_failing_otherwise():
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    model.double()
    compiled(torch.randn(2, 4).double())
    assert False, "the test's own failure"


def test_block_recompiles():
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    with guardscope.no_recompiles():
        model.double()
        compiled(torch.randn(2, 4).double())


@guardscope.no_recompiles()
def test_decorated_and_recompiles():
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    model.double()
    compiled(torch.randn(2, 4).double())


@pytest.mark.no_recompiles(max_recompile_causes=1)
def test_marked_within_a_cause_budget():
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    model.double()
    compiled(torch.randn(2, 4).double())


@pytest.mark.no_recompiles(max=5, max_recompile_causes=0)
def test_marked_past_a_cause_budget():
    model, compiled = compiled_linear()
    compiled(torch.randn(2, 4))
    model.double()
    compiled(torch.randn(2, 4).double())
'''


@pytest.fixture(scope="module")
def inner_run(tmp_path_factory):
    pytester_dir = tmp_path_factory.mktemp("inner")
    (pytester_dir / "test_inner.py").write_text(INNER)
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "guardscope.pytest_plugin", "-rA", "-p", "no:cacheprovider", "test_inner.py"],
        cwd=pytester_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.stdout + proc.stderr


def outcome(run, name):
    for line in run.splitlines():
        for word in ("PASSED", "FAILED", "ERROR"):
            if line.startswith(f"{word} test_inner.py::{name}"):
                return word
    raise AssertionError(f"no outcome for {name}:\n{run}")


def failure(run, name):
    """The failure section of test `name`: up to the next test's, or to the
    section after the failures."""
    return run.split(f"_ {name} _", 1)[1].split("\n___", 1)[0].split("\n===", 1)[0]


def test_a_marked_test_that_recompiles_fails_with_the_cause(inner_run):
    assert outcome(inner_run, "test_marked_and_recompiles") == "FAILED"
    text = failure(inner_run, "test_marked_and_recompiles")
    assert "guardscope.RecompileError: 1 recompile(s) inside no_recompiles():" in text, text
    assert ": dtype" in text or "dtype" in text.split("recompile(s)", 1)[1], text
    assert "fix: " in text, text


# Lines of guardscope's own source pytest printed before its frames were
# hidden (the plugin's hook wrapper, the guard's __exit__).
GUARDSCOPE_SOURCE = ("pytest_plugin.py", "_guards.py", "_close(item", "def __exit__", "raise RecompileError", "outcome = yield")


def shown_lines(text):
    """The failure's lines under its header (whose underscores end its first line)."""
    return [line for line in text.splitlines()[1:] if line.strip()]


@pytest.mark.parametrize("name", ["test_marked_and_recompiles", "test_fixture_with_warmup_recompiles_after_it", "test_decorated_and_recompiles"])
def test_a_failure_after_the_test_body_opens_with_the_cause_at_the_users_line(inner_run, name):
    text = failure(inner_run, name)
    assert not [line for line in text.splitlines() if any(s in line for s in GUARDSCOPE_SOURCE)], text
    # Nothing of the test's frames is left when the body has returned: the
    # first line is the error, whose first recompile names the user's line.
    lines = shown_lines(text)
    assert lines[0].startswith("E   guardscope.RecompileError: 1 recompile(s)"), text
    assert "(called from test_inner.py:" in lines[1], text


def test_a_failing_block_points_at_the_users_with_line(inner_run):
    text = failure(inner_run, "test_block_recompiles")
    assert not [line for line in text.splitlines() if any(s in line for s in GUARDSCOPE_SOURCE)], text
    lines = shown_lines(text)
    assert lines[0].strip() == "def test_block_recompiles():", text
    pointed = [line for line in lines if line.startswith(">")]
    assert pointed == [">       with guardscope.no_recompiles():"], text
    assert lines[-1].startswith("test_inner.py:") and lines[-1].endswith(": RecompileError"), text


def test_the_marker_takes_a_cause_budget(inner_run):
    assert outcome(inner_run, "test_marked_within_a_cause_budget") == "PASSED", inner_run
    text = failure(inner_run, "test_marked_past_a_cause_budget")
    assert (
        "RecompileError: 1 recompile(s) inside no_recompiles(), more than max_recompile_causes=0 "
        "(one cause can recompile many frames):" in text
    ), text


def test_a_steady_or_allowed_test_passes(inner_run):
    assert outcome(inner_run, "test_marked_and_steady") == "PASSED", inner_run
    assert outcome(inner_run, "test_marked_and_allowed") == "PASSED", inner_run
    assert outcome(inner_run, "test_fixture_within_budget") == "PASSED", inner_run


def test_the_fixture_counts_after_the_marker_warmup_and_fails_the_call(inner_run):
    name = "test_fixture_with_warmup_recompiles_after_it"
    assert outcome(inner_run, name) == "FAILED", inner_run
    text = failure(inner_run, name)
    # The call failed, not the teardown, and with the one recompile after warm-up.
    assert "1 recompile(s) inside no_recompiles():" in text and "0/2" in text, text
    assert "ERROR test_inner.py::" + name not in inner_run


def test_torch_trace_events_stay_out_of_the_captured_logs(inner_run):
    # torch's trace logger carries each compile event as an empty DEBUG
    # message; pytest would list them under every test (-rA shows the
    # captured logs of passing tests too) while guardscope still reads them:
    # the failure above names its cause.
    assert "torch.__trace" not in inner_run, inner_run
    assert outcome(inner_run, "test_caplog_holds_no_trace_events") == "PASSED", inner_run
    assert "guardscope.RecompileError" in failure(inner_run, "test_marked_and_recompiles")


def test_a_test_failing_on_its_own_keeps_its_failure(inner_run):
    text = failure(inner_run, "test_marked_and_failing_otherwise")
    assert "the test's own failure" in text and "RecompileError" not in text, text


def test_the_plugin_is_an_entry_point_and_its_marker_is_registered(pytester, monkeypatch):
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]["pytest11"]
    assert declared == {"guardscope": "guardscope.pytest_plugin"}
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # loaded by -p alone, not twice
    result = pytester.runpytest_inprocess("-p", "guardscope.pytest_plugin", "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.no_recompiles(max=0, allow=(), warmup_steps=0, reset=True):*"])


# Tests of one module sharing one compiled function, as a real suite shares a
# model: Dynamo's code cache outlives each test.
ORDER_HEADER = """
import pytest
import torch


@torch.compile(backend="eager")
def double(x):
    return x * 2
"""

ORDER_TESTS = {
    # Compiles `double` for float32 and float64, length 4.
    "test_warms_the_cache": """
def test_warms_the_cache():
    double(torch.ones(4))
    double(torch.ones(4, dtype=torch.float64))
""",
    # A dtype recompile in a fresh process: fails; after the warm-up both
    # compiles were cached and it passed.
    "test_marked_recompiles": """
@pytest.mark.no_recompiles
def test_marked_recompiles():
    double(torch.ones(4))
    double(torch.ones(4, dtype=torch.float64))
""",
    # One first compile in a fresh process: passes; after the warm-up the new
    # length recompiled (a dynamic-shape compile) and it failed.
    "test_marked_one_compile": """
@pytest.mark.no_recompiles
def test_marked_one_compile():
    double(torch.ones(8))
""",
    # The opt-out: what earlier tests compiled stays, so it passes after them.
    "test_marked_keeps_the_cache": """
@pytest.mark.no_recompiles(reset=False)
def test_marked_keeps_the_cache():
    double(torch.ones(4))
    double(torch.ones(4, dtype=torch.float64))
""",
}


def run_in_order(tmp_path, names):
    """Outcome of each test when the module holds `names` in that order, run by real pytest."""
    directory = tmp_path / "-".join(names)
    directory.mkdir()
    (directory / "test_inner.py").write_text(ORDER_HEADER + "".join(ORDER_TESTS[n] for n in names))
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "guardscope.pytest_plugin", "-rA", "-p", "no:cacheprovider", "test_inner.py"],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    run = proc.stdout + proc.stderr
    return {name: outcome(run, name) for name in names}, run


def test_a_marked_tests_verdict_does_not_depend_on_the_tests_before_it(tmp_path):
    verdicts = {"test_marked_recompiles": "FAILED", "test_marked_one_compile": "PASSED"}
    marked = list(verdicts)
    for name, expected in verdicts.items():
        alone, run = run_in_order(tmp_path, [name])
        assert alone == {name: expected}, run
    first, run = run_in_order(tmp_path, [*marked, "test_warms_the_cache"])
    assert first == {**verdicts, "test_warms_the_cache": "PASSED"}, run
    last, run = run_in_order(tmp_path, ["test_warms_the_cache", "test_marked_keeps_the_cache", *marked])
    assert last == {**verdicts, "test_warms_the_cache": "PASSED", "test_marked_keeps_the_cache": "PASSED"}, run
