"""The package is typed: mypy --strict passes on it, the stub of the PyO3
module matches the module, a typed program using the public API (typed_usage.py)
type-checks and runs, and its misuse lines fail type checking with the errors
they are marked with. The wheel ships py.typed and the stub.

mypy runs on a copy of the package that the tests import (the installed
wheel under `make test`), with the checkout's pyproject.toml as its config.
"""

import os
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import guardscope
from guardscope import _native

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PACKAGE = Path(guardscope.__file__).resolve().parent
USAGE = HERE / "typed_usage.py"


@pytest.fixture(scope="module")
def mypy_path(tmp_path_factory):
    """A directory holding the package's sources and stubs (no extension)."""
    root = tmp_path_factory.mktemp("mypy_path")
    shutil.copytree(PACKAGE, root / "guardscope", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return root


def mypy(mypy_path, *args, module="mypy"):
    proc = subprocess.run(
        [sys.executable, "-m", module, "--config-file", str(REPO / "pyproject.toml"), *args],
        cwd=mypy_path,
        env={**os.environ, "MYPYPATH": str(mypy_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.returncode, proc.stdout + proc.stderr


def test_the_package_ships_its_type_information():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_native.pyi").is_file()


def test_mypy_strict_passes_on_the_package(mypy_path):
    code, out = mypy(mypy_path, "--strict", "--no-incremental", "-p", "guardscope")
    assert code == 0, out
    assert out.startswith("Success: no issues found in"), out


def test_the_native_stub_matches_the_module(mypy_path):
    # stubtest imports the real module (so not from the copy, which has no
    # extension) and compares every name, signature and property with the stub.
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "guardscope._native", "--mypy-config-file", str(REPO / "pyproject.toml")],
        cwd=HERE,
        env={**os.environ, "MYPYPATH": str(mypy_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def expected_errors():
    """(line, codes) of the lines of typed_usage.py marked ``# E: codes``."""
    found = set()
    for number, line in enumerate(USAGE.read_text().splitlines(), 1):
        marked = re.search(r"  # E: ([a-z-]+(?:, [a-z-]+)*)$", line)
        if marked:
            found.add((number, frozenset(c.strip() for c in marked.group(1).split(","))))
    return found


def test_typed_usage_type_checks_and_only_the_misuse_is_flagged(mypy_path):
    assert len(expected_errors()) >= 4
    code, out = mypy(mypy_path, "--strict", "--no-incremental", str(USAGE))
    got = {}
    for line in out.splitlines():
        error = re.match(r".*typed_usage\.py:(\d+): error: .*\[([a-z-]+)\]$", line)
        if error:
            got.setdefault(int(error.group(1)), set()).add(error.group(2))
    assert code == 1, out
    assert {(line, frozenset(codes)) for line, codes in got.items()} == expected_errors(), out
    # The example: a wrong path type and a misspelt keyword, both caught.
    assert 'Unexpected keyword argument "warnn" for "StepLogger"' in out, out


def test_typed_rehearsal_runs():
    sys.path.insert(0, str(HERE))
    try:
        import typed_usage
    finally:
        sys.path.remove(str(HERE))
    assert typed_usage.rehearsed().totals.compiles == 2


def test_typed_usage_runs(tmp_path):
    sys.path.insert(0, str(HERE))
    try:
        import typed_usage
    finally:
        sys.path.remove(str(HERE))
    events = typed_usage.run(str(tmp_path))
    # The typed records are the real ones: every key, nothing more.
    [event] = events
    assert set(event) == set(guardscope.CompileEvent.__annotations__)
    assert set(event["cause"]) == set(typing.get_type_hints(guardscope.CompileEvent)["cause"].__args__[0].__annotations__)
    record = guardscope.StepRecord
    assert record.__optional_keys__ == {"rank"}


def test_typed_load_usage_runs():
    sys.path.insert(0, str(HERE))
    try:
        import typed_usage
    finally:
        sys.path.remove(str(HERE))
    samples = REPO / "samples/traces"
    verdict = typed_usage.loaded(str(samples / "collision"), str(samples / "collision_fixed"))
    assert not verdict and [o.category for o in verdict.offending] == ["shape_lazy_buffer", "closure_hook_state"]


def test_the_step_records_keys_are_the_typed_ones(tmp_path):
    log = guardscope.StepLogger(tmp_path / "s.jsonl", warn=False)
    with log.step(0):
        pass
    log.close()
    assert set(log.last) == guardscope.StepRecord.__required_keys__
    assert set(log.last["counters"]) == set(guardscope._types.StepCounters.__annotations__)


def test_the_category_literal_is_the_native_list():
    assert typing.get_args(guardscope.Category) == tuple(_native.CATEGORIES)
    assert typing.get_args(guardscope._types.Stat) == tuple(_native.STATS)


def test_the_lazy_names_are_visible_to_static_tools():
    # jedi and mypy read the TYPE_CHECKING imports; each lazy name has one.
    source = (PACKAGE / "__init__.py").read_text()
    block = source.split("if TYPE_CHECKING:", 1)[1].split("\n\n", 1)[0]
    for name, module in guardscope._LAZY.items():
        assert re.search(rf"from {module} import .*\b{name}\b", block), name
