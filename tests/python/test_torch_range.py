"""The supported torch range is checked when the helpers import torch: older
than supported fails the import with one message, newer than tested warns,
the torch under test passes silently. Runs on both ends of the range
(`make test` and `make test-python-oldest`).

Each case runs in a fresh interpreter with the real torch of the venv under
test; only ``torch.__version__`` is rewritten before guardscope is imported,
as a torch of that version would report it.
"""

import re
import subprocess
import sys
from pathlib import Path

import torch

import guardscope
from guardscope import _torch_range

REPO = Path(__file__).resolve().parents[2]


def import_helpers(version=None):
    """Imports the activation hooks in a new interpreter, with torch's version set to
    ``version`` first (when given); warnings are printed, not filtered."""
    code = (
        "import sys, warnings\n"
        "warnings.simplefilter('always')\n"
        "import torch\n"
        + (f"torch.__version__ = {version!r}\n" if version else "")
        + "import guardscope._hooks\n"
        "print('imported')\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_a_torch_older_than_supported_fails_every_helper_with_one_message():
    # Every way in: the modules that import torch, and the compile-event
    # helpers, which import it when first used.
    code = (
        "import os, torch\n"
        "torch.__version__ = '2.10.2+cpu'\n"
        "import guardscope\n"
        "tries = {\n"
        "    'hooks': lambda: __import__('guardscope._hooks'),\n"
        "    'op': lambda: __import__('guardscope._op'),\n"
        "    'stats': lambda: __import__('guardscope._stats'),\n"
        "    'queue': lambda: __import__('guardscope._queue'),\n"
        "    'in_graph': lambda: __import__('guardscope._in_graph'),\n"
        "    'forward_hooks': lambda: __import__('guardscope._forward_hooks'),\n"
        "    'trace_activations': lambda: guardscope.trace_activations,\n"
        "    'StepLogger': lambda: guardscope.StepLogger(os.devnull),\n"
        "    'compile_events': lambda: guardscope.compile_events().__enter__(),\n"
        "    'no_recompiles': lambda: guardscope.no_recompiles().__enter__(),\n"
        "}\n"
        "for name, attempt in tries.items():\n"
        "    try:\n"
        "        attempt()\n"
        "        print(name, 'accepted')\n"
        "    except ImportError as e:\n"
        "        print(name, 'refused:', e)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    message = (
        "guardscope's torch helpers need torch 2.11 or newer (tested on torch 2.11 to 2.15); "
        "this environment has torch 2.10.2+cpu. Upgrade torch (pip install 'torch>=2.11'), or use the "
        "guardscope command line, which reads TORCH_TRACE logs without torch"
    )
    names = ["hooks", "op", "stats", "queue", "in_graph", "forward_hooks", "trace_activations", "StepLogger", "compile_events", "no_recompiles"]
    assert proc.stdout.splitlines() == [f"{name} refused: {message}" for name in names], proc.stdout + proc.stderr


def test_a_torch_newer_than_tested_imports_with_one_guardscope_warning():
    proc = import_helpers("2.16.0.dev20260301+cpu")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == "imported\n"
    warnings = re.findall(r"GuardscopeWarning: (.*)", proc.stderr)
    assert warnings == [
        "guardscope: torch 2.16.0.dev20260301+cpu is newer than the torch versions the helpers are tested "
        "on (torch 2.11 to 2.15); they use private torch APIs (torch._logging, torch._dynamo) that may "
        "have changed"
    ], proc.stderr


def test_the_warning_is_a_guardscope_warning_that_can_be_made_an_error():
    code = (
        "import warnings, torch, guardscope\n"
        "torch.__version__ = '3.0.0'\n"
        "warnings.simplefilter('error', guardscope.GuardscopeWarning)\n"
        "try:\n"
        "    import guardscope._hooks\n"
        "except guardscope.GuardscopeWarning as e:\n"
        "    print('raised:', e)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("raised: guardscope: torch 3.0.0 is newer than"), proc.stdout + proc.stderr


def test_the_torch_under_test_is_in_the_stated_range_and_imports_silently():
    # Fails when .venv gets a torch newer than NEWEST_TESTED: once the suite
    # passes on it, move NEWEST_TESTED (and the README, pyproject.toml) up.
    version = _torch_range.parse(str(torch.__version__))
    assert version is not None and _torch_range.OLDEST <= version <= _torch_range.NEWEST_TESTED, torch.__version__
    proc = import_helpers()
    assert proc.returncode == 0 and proc.stdout == "imported\n", proc.stdout + proc.stderr
    assert "Warning" not in proc.stderr, proc.stderr


def test_versions_are_read_as_torch_writes_them():
    assert _torch_range.parse("2.15.0+cu132") == (2, 15)
    assert _torch_range.parse("2.11.0") == (2, 11)
    assert _torch_range.parse("2.16.0a0+git1234abc") == (2, 16)
    assert _torch_range.parse("2.9.1") == (2, 9)  # (2, 9) < (2, 11): compared as numbers
    assert _torch_range.parse("nightly") is None
    assert _torch_range.problem("2.9.1")[0] is ImportError
    assert _torch_range.problem("nightly")[0] is guardscope.GuardscopeWarning


def test_the_readme_and_the_metadata_state_the_range_that_is_checked():
    oldest = "%d.%d" % _torch_range.OLDEST
    newest = "%d.%d" % _torch_range.NEWEST_TESTED
    readme = (REPO / "README.md").read_text()
    assert f"torch {oldest} to {newest}" in readme
    pyproject = (REPO / "pyproject.toml").read_text()
    assert f'torch = ["torch>={oldest}"]' in pyproject
    makefile = (REPO / "Makefile").read_text()
    assert re.search(rf"^OLDEST_TORCH := {re.escape(oldest)}\.0$", makefile, re.M), "Makefile's OLDEST_TORCH"
