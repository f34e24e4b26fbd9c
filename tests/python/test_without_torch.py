"""`import guardscope` and `help(guardscope)` need no torch: run in a venv
without torch, with only the package under test on its path."""

import subprocess
import sys
from pathlib import Path

import guardscope

PACKAGE = Path(guardscope.__file__).resolve().parent
COLLISION = Path(__file__).resolve().parents[2] / "samples/traces/collision"


def test_help_and_the_cli_work_in_a_venv_without_torch(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # Only the package (the installed one under `make test`, whose
    # site-packages also hold torch): a directory with it alone.
    path = tmp_path / "path"
    path.mkdir()
    (path / "guardscope").symlink_to(PACKAGE)
    code = (
        "import importlib.util, pydoc, guardscope\n"
        "assert importlib.util.find_spec('torch') is None\n"
        "text = pydoc.render_doc(guardscope)\n"
        "assert 'explains torch.compile recompilations' in text and 'GuardscopeWarning' in text, text\n"
        "assert guardscope.main(['--version']) == 0\n"
        f"run = guardscope.load({str(COLLISION)!r})\n"
        "assert run.totals.recompiles == 2 and not run.check() and len(run.to_records()) == 3\n"
        "assert 'What to fix' in run._repr_html_()\n"
        "try:\n"
        "    guardscope.trace_activations\n"
        "except ImportError as e:\n"
        "    print('no torch:', e)\n"
    )
    proc = subprocess.run(
        [str(python), "-c", code], env={"PYTHONPATH": str(path)}, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no torch: No module named 'torch'" in proc.stdout, proc.stdout
