"""guardscope: explains torch.compile recompilations, and instruments
training without causing them.

The command line (``guardscope summary TRACE_DIR``) reads TORCH_TRACE logs;
``guardscope.main`` runs the same command line from Python, and
``guardscope.load(TRACE_DIR)`` reads them in-process into a ``Run``
(recompiles and their causes, frames, totals, input errors; ``check()``,
``to_records()``, ``to_pandas()``, ``report()``). No torch needed.

Activation traces (need torch, imported on first use):

- ``trace_activations(model, layers=None, stats=("abs_mean", "sum"), steps=None,
  output=None, mode="op")`` -> ``ActivationTrace``
- ``attach_from_env(model)``: the same, configured by ``GUARDSCOPE_TRACE_*``
  environment variables; returns None (and hooks nothing) when off.
- ``register_forward_hooks(model, specs)``: forward hooks from JSON specs;
  ``guardscope:activation_stats`` is the built-in factory.

Compile events (captured in-process, no TORCH_TRACE needed):

- ``StepLogger(path)``: one JSON line per training step with the compiles
  inside it, their classified causes, graph breaks and counter deltas.
- ``no_recompiles(warmup_steps=0, allow=(), max_recompiles=0)``: context
  manager / decorator raising ``RecompileError`` on a recompile.
- ``compile_events()``: context manager collecting the compiles of a block.

Rehearsals (a job's compiles predicted before it runs, docs/rehearse.md):

- ``to_meta(obj)``: a model, tensor or batch copied onto the meta device.
- ``rehearse(plan, backend="eager")`` -> ``Rehearsal``: the compiles of
  ``plan()`` in a forked process with fresh Dynamo caches, as a ``Run``
  of predicted recompiles plus ``unseen`` and ``verified_fixes``.
- The training callbacks' ``rehearse=True, on_problem="raise"`` raise
  ``PredictedProblemError`` before the first step on a predicted problem.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any, Iterable

from guardscope._load import Cause, Compile, Frame, InputErrors, LoadError, Offense, Problems, Recompile, Run, Totals, Verdict, load
from guardscope._native import __version__, run_cli
from guardscope._types import Category, CompileEvent, StepRecord
from guardscope._warnings import GuardscopeWarning

if TYPE_CHECKING:
    # What __getattr__ loads on first use, for type checkers and IDEs (jedi
    # reads these; at run time importing them would import torch).
    from guardscope._guards import CompileEvents, RecompileError, compile_events, no_recompiles
    from guardscope._hooks import ActivationTrace, attach_from_env, trace_activations
    from guardscope._specs import HookHandles, activation_stats, register_forward_hooks
    from guardscope._meta import to_meta
    from guardscope._fixes import Fix
    from guardscope._rehearse import PredictedProblemError, Rehearsal, RehearsalError, Unseen, rehearse
    from guardscope._steps import StepLogger

__all__ = [
    "ActivationTrace",
    "Category",
    "Cause",
    "Compile",
    "CompileEvent",
    "CompileEvents",
    "Fix",
    "Frame",
    "GuardscopeWarning",
    "HookHandles",
    "InputErrors",
    "LoadError",
    "Offense",
    "PredictedProblemError",
    "Problems",
    "Recompile",
    "RecompileError",
    "Rehearsal",
    "RehearsalError",
    "Run",
    "StepLogger",
    "StepRecord",
    "Totals",
    "Unseen",
    "Verdict",
    "__version__",
    "activation_stats",
    "attach_from_env",
    "compile_events",
    "load",
    "main",
    "no_recompiles",
    "register_forward_hooks",
    "rehearse",
    "run_cli",
    "to_meta",
    "trace_activations",
]

# Defined in modules that import torch; loaded on first use so that
# `import guardscope` (and the CLI) work without torch.
_LAZY = {
    "ActivationTrace": "guardscope._hooks",
    "attach_from_env": "guardscope._hooks",
    "trace_activations": "guardscope._hooks",
    "HookHandles": "guardscope._specs",
    "activation_stats": "guardscope._specs",
    "register_forward_hooks": "guardscope._specs",
    "StepLogger": "guardscope._steps",
    "CompileEvents": "guardscope._guards",
    "RecompileError": "guardscope._guards",
    "compile_events": "guardscope._guards",
    "no_recompiles": "guardscope._guards",
    "to_meta": "guardscope._meta",
    "Fix": "guardscope._fixes",
    "PredictedProblemError": "guardscope._rehearse",
    "Rehearsal": "guardscope._rehearse",
    "RehearsalError": "guardscope._rehearse",
    "Unseen": "guardscope._rehearse",
    "rehearse": "guardscope._rehearse",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'guardscope' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # Without torch the lazy names are left out: pydoc (help(guardscope)) and
    # completion read every name dir() gives, and loading these imports torch.
    names = set(globals())
    if importlib.util.find_spec("torch") is not None:
        names |= set(_LAZY)
    return sorted(names)


def main(argv: Iterable[str] | None = None) -> int:
    """Runs the guardscope CLI with ``argv`` (default: ``sys.argv[1:]``) and returns its exit code.

    The caller's SIGINT handler is left as it is, so Ctrl-C during the call
    is raised (KeyboardInterrupt) only once the command returns; the
    ``guardscope`` console script instead gives SIGINT its default action and
    ends at once (exit status 130 in a shell)."""
    import sys

    args = sys.argv[1:] if argv is None else list(argv)
    return run_cli(["guardscope", *args])
