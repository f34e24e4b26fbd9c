"""Every ```python block of README.md, docs/python.md and docs/rehearse.md runs as written, and
the output blocks of docs/python.md that a run can produce match that run.

Each block runs in a fresh interpreter (no state shared with pytest or with
another block), in a temporary directory, after PRELUDE: the names the docs
leave to the reader, bound to a tiny real model. A block that fails here is
a docs bug: fix the block, not the prelude.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from _models import Net

import guardscope

REPO = Path(__file__).resolve().parents[2]
# The files whose ```python blocks run here; tests/docs_examples.rs fails on a
# ```python block anywhere else, so none is silently left out.
PYTHON_DOCS = ("README.md", "docs/python.md", "docs/rehearse.md")
DOCS_DIR = REPO / "docs"

# What the docs leave to the reader, and nothing more. The names follow the
# docs: `blocks.N` and `blocks.N.mlp` (the layer patterns they use), `head`,
# a `loader` of batches, `x` an input batch.
PRELUDE = '''
import torch
from torch import nn

# The blocks' claims are about Dynamo (guards, recompiles, hooks), which runs
# the same whatever the backend; inductor's C++ codegen would add 10-20 s per
# block on a 2-core machine. Hooks under inductor: test_hooks_*.py.
# An explicit backend= in a block is kept.
_torch_compile = torch.compile
def _compile(model=None, **kwargs):
    kwargs.setdefault("backend", "aot_eager")
    return _torch_compile(**kwargs) if model is None else _torch_compile(model, **kwargs)
torch.compile = _compile

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d, d), nn.GELU())

    def forward(self, x):
        return x + self.mlp(x)

class TinyModel(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(2))
        self.head = nn.Linear(d, 4)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)

def build_model():
    return TinyModel()

torch.manual_seed(0)
model = build_model()
x = torch.randn(4, 8)
loader = [torch.randn(4, 8) for _ in range(3)]

def attach_metric_hooks(model):
    # Metric hooks done right, as the docs' no_recompiles() test expects:
    # the state they change is kept out of Dynamo's sight (appended to
    # inside the compiled region, the list's length would be guarded on).
    norms = []

    @torch._dynamo.disable
    def record_norm(module, args, out):
        norms.append(out.detach().norm())

    for block in model.blocks:
        block.register_forward_hook(record_norm)
    return norms

_compiled = {}
def train_step(batch_or_model, step=None):
    # The docs call it as train_step(batch) in a training loop and as
    # train_step(model[, step]) in a test: one compiled forward + backward.
    if isinstance(batch_or_model, nn.Module):
        target, batch = batch_or_model, x
    else:
        target, batch = model, batch_or_model
    compiled = _compiled.setdefault(id(target), torch.compile(target))
    compiled(batch).square().mean().backward()
'''

# The docs say the functions of a block like `def test_...():` are run by
# pytest: run them, or the block would only be defined, never checked. A
# block using markers or fixtures runs under pytest itself, with guardscope's
# plugin (named here, so not autoloaded a second time).
EPILOGUE = """
import inspect as _inspect
_tests = [_fn for _name, _fn in list(globals().items()) if _name.startswith("test_") and callable(_fn)]
if __name__ == "__main__":
    if any(_inspect.signature(_fn).parameters or hasattr(_fn, "pytestmark") for _fn in _tests):
        import os as _os, sys as _sys, pytest as _pytest
        _os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        _sys.exit(_pytest.main([__file__, "-q", "-p", "guardscope.pytest_plugin", "-p", "no:cacheprovider"]))
    for _fn in _tests:
        _fn()
"""

# The reader's own hook factory that the register_forward_hooks example names.
MY_PROJECT_HOOKS = '''
def factory(config):
    def hook(module, args, output):
        pass
    return hook
'''


def fenced_blocks(path):
    """(first line number of the code, info string, code) of each fenced block."""
    blocks, info, start, lines = [], None, 0, []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("```"):
            if info is None:
                info, start, lines = line[3:].strip(), number + 1, []
            else:
                blocks.append((start, info, "\n".join(lines) + "\n"))
                info = None
        elif info is not None:
            lines.append(line)
    assert info is None, f"{path}: unclosed code block from line {start - 1}"
    return blocks


def python_blocks():
    found = []
    for name in PYTHON_DOCS:
        found += [(name, start, code) for start, info, code in fenced_blocks(REPO / name) if info == "python"]
    return found


PYTHON_BLOCKS = python_blocks()


def test_the_documented_python_blocks_are_found():
    # A change to how blocks are fenced must not leave the parametrized test
    # below with nothing to run.
    per_file = {name: sum(1 for n, _, _ in PYTHON_BLOCKS if n == name) for name in PYTHON_DOCS}
    assert per_file["README.md"] >= 1 and per_file["docs/python.md"] >= 5, per_file


def block_script(name, start, code):
    # Compiled with the docs' file name and line numbers, so that a failure
    # points at the line of the docs that is wrong.
    return (
        PRELUDE
        + f"\nimport ast as _ast\n_tree = _ast.parse({code!r}, {name!r})\n"
        + f"_ast.increment_lineno(_tree, {start - 1})\n"
        + f"exec(compile(_tree, {name!r}, 'exec'), globals())\n"
        + EPILOGUE
    )


@pytest.fixture(scope="module")
def block_runs(tmp_path_factory):
    """Every block started at once: each run is mostly importing torch and
    compiling, so side by side they take a fraction of the time in a row."""
    runs = {}
    for name, start, code in PYTHON_BLOCKS:
        cwd = tmp_path_factory.mktemp("block")
        (cwd / "my_project").mkdir()
        (cwd / "my_project" / "__init__.py").write_text("")
        (cwd / "my_project" / "hooks.py").write_text(MY_PROJECT_HOOKS)
        # The reader's TORCH_TRACE directories that guardscope.load reads:
        # real logs (the collision sample, and its fixed run as a baseline).
        shutil.copytree(REPO / "samples/traces/collision", cwd / "trace")
        shutil.copytree(REPO / "samples/traces/collision_fixed", cwd / "base")
        (cwd / "block.py").write_text(block_script(name, start, code))
        runs[(name, start)] = subprocess.Popen(
            [sys.executable, "block.py"], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    yield runs
    for proc in runs.values():
        proc.kill()
        proc.wait()
        # The examples write to these fixed paths of their own.
        for written in (f"/tmp/acts_0_{proc.pid}.jsonl", "/tmp/acts.jsonl"):
            Path(written).unlink(missing_ok=True)


@pytest.mark.parametrize("name,start", [(n, s) for n, s, _ in PYTHON_BLOCKS], ids=[f"{n}:{s}" for n, s, _ in PYTHON_BLOCKS])
def test_python_block_runs_as_written(name, start, block_runs):
    proc = block_runs[(name, start)]
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, f"{name}:{start} failed:\n{out}"


def output_block(starts_with):
    """The one output block (no info string) of docs/python.md that starts so."""
    matches = [
        code
        for _, info, code in fenced_blocks(DOCS_DIR / "python.md")
        if info == "" and code.startswith(starts_with)
    ]
    assert len(matches) == 1, f"{len(matches)} output blocks of docs/python.md start with {starts_with!r}"
    return matches[0]


def as_pattern(documented):
    """A regex for a documented output: timings (`0.59 s`) match any, and
    `...` (where the docs shorten a line) matches any text."""
    parts = re.split(r"(\d+\.\d+ s|\.\.\.)", documented)
    return "".join(
        r"\d+\.\d+ s" if p.endswith(" s") and p[0].isdigit() else ".*?" if p == "..." else re.escape(p) for p in parts
    )


ERROR_MARK = "--- the RecompileError as a traceback prints it ---\n"

# The collision sample's training (samples/scripts/_collision_model.py) with
# a StepLogger inside no_recompiles(warmup_steps=2), as docs/python.md
# describes both: its step 2 recompile is warm-up, its step 12 one is not.
COLLISION_RUN = """
import logging, sys, traceback
sys.path.insert(0, "samples/scripts")
import torch
import guardscope
from _collision_model import MetricsCollector, N_HEADS, TinyDecoder, register_forward_metric_hooks, train

logging.basicConfig(stream=sys.stderr, format="LOG " + logging.BASIC_FORMAT)
torch.manual_seed(0)
model = TinyDecoder(prematerialize_pos_enc=False)
collector = MetricsCollector(N_HEADS)
register_forward_metric_hooks(model, collector)
try:
    with guardscope.no_recompiles(warmup_steps=2):
        train(model, collector, "docs", steps_log=guardscope.StepLogger(sys.argv[1]))
except guardscope.RecompileError as e:
    print(ERROR_MARK + "".join(traceback.format_exception_only(type(e), e)), file=sys.stderr, end="")
""".replace("ERROR_MARK", repr(ERROR_MARK))


@pytest.fixture(scope="module")
def collision_run(tmp_path_factory):
    steps = tmp_path_factory.mktemp("collision") / "steps.jsonl"
    # From the checkout's root, so that the sample's file is shown as the
    # docs show it (relative to the current directory).
    proc = subprocess.run(
        [sys.executable, "-c", COLLISION_RUN, str(steps)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stderr


def test_the_step_logger_warning_is_the_documented_one(collision_run):
    documented = output_block("WARNING:guardscope:step ").strip()
    warnings = [line[len("LOG ") :] for line in collision_run.splitlines() if line.startswith("LOG ")]
    assert len(warnings) == 2, collision_run  # steps 2 and 12
    assert re.fullmatch(as_pattern(documented), warnings[1]), f"docs: {documented}\nrun:  {warnings[1]}"


def test_the_recompile_error_is_the_documented_one(collision_run):
    documented = output_block("guardscope.RecompileError")
    # What a traceback (and pytest) prints: the exception's qualified name, then its message.
    assert ERROR_MARK in collision_run, "no RecompileError was raised:\n" + collision_run
    error = collision_run.split(ERROR_MARK, 1)[1]
    assert re.fullmatch(as_pattern(documented), error, re.S), f"docs:\n{documented}\nrun:\n{error}"


def test_the_activation_line_has_the_documented_keys_and_types(tmp_path):
    documented = json.loads(output_block('{"module"'))
    model = Net()
    with guardscope.trace_activations(model, layers=r"^blocks\.0$", stats=("abs_mean", "sum"), output=str(tmp_path / "a.jsonl")):
        model(torch.randn(3, 8))
    record = json.loads((tmp_path / "a.jsonl").read_text().splitlines()[0])
    assert list(record) == list(documented)
    assert [type(v) for v in record.values()] == [type(v) for v in documented.values()]
