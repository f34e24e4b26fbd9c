"""IDE completion: jedi (what VS Code's Python language server and IPython
use) sees the public names that ``guardscope.__getattr__`` loads lazily,
through the ``if TYPE_CHECKING:`` imports, with their signatures, and infers
what they return. jedi reads the source; nothing here imports torch.
"""

import sys
from pathlib import Path

import jedi

import guardscope

PACKAGE = Path(guardscope.__file__).resolve().parent


def script(code):
    # The interpreter running the tests, in its own process as an editor runs
    # it (in pytest's process jedi resolves the lazy names wrongly), so jedi
    # reads the package the tests import (the installed wheel under `make test`).
    env = jedi.create_environment(sys.executable, safe=False)
    return jedi.Script(code, path="usage.py", environment=env)


def test_completing_guardscope_offers_the_helpers_with_their_signatures():
    completions = {c.name: c for c in script("import guardscope\nguardscope.").complete(2, len("guardscope."))}
    expected = {
        "StepLogger": "StepLogger(path: Union[str, os.PathLike[str]], *, warn: bool=True",
        "no_recompiles": "no_recompiles(warmup_steps: int=0, allow: Category | Iterable[Category]=(), "
        "max_recompiles: Optional[int]=None, all_threads: bool=False, max_recompile_causes: Optional[int]=None)",
        "trace_activations": "trace_activations(model: torch.nn.Module, layers: Optional[str]=None",
        "compile_events": "compile_events(all_threads: bool=False) -> Iterator[CompileEvents]",
    }
    for name, signature in expected.items():
        assert name in completions, sorted(completions)
        signatures = [s.to_string() for s in completions[name].get_signatures()]
        assert any(s.startswith(signature) for s in signatures), (name, signatures)
        assert Path(completions[name].module_path).resolve().parent == PACKAGE, completions[name].module_path


def test_a_step_logger_is_inferred_as_one():
    code = "import guardscope\nlog = guardscope.StepLogger('steps.jsonl')\nlog"
    inferred = script(code).infer(3, 2)
    assert [(d.full_name, d.type) for d in inferred] == [("guardscope._steps.StepLogger", "instance")]
    methods = {c.name for c in script(code + ".").complete(3, 4)}
    assert {"step", "close"} <= methods, sorted(methods)
