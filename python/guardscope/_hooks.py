"""Activation-trace forward hooks that never cause a recompile.

What a hook does under ``torch.compile`` decides whether it recompiles:
Dynamo traces the hook and guards on every Python value it reads, so a hook
that reads a flag or a step counter recompiles when they change. These hooks
read only constants (a tracer id, a module index, a token tensor); all state
that changes at run time lives in the Rust tracer and is read in the opaque
part: the custom op's body (``mode="op"``) or a ``torch._dynamo.disable``
function (``mode="disable"``). The hook functions are in ``_forward_hooks``;
here, the trace they belong to and how it is attached.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import tempfile
from typing import Any, Iterable, Literal, Optional, Sequence, Tuple, Union

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope import _native, _paths, _process, _queue
from guardscope._forward_hooks import disable_hook, op_hook
from guardscope._tracers import TRACERS, forget
from guardscope._types import Mode, Stat
from guardscope._warnings import warn

logger = logging.getLogger("guardscope")

MODES: Tuple[Mode, ...] = ("op", "disable")
DEFAULT_STATS: Tuple[Stat, ...] = ("abs_mean", "sum")
DEFAULT_OUTPUT = os.path.join(tempfile.gettempdir(), "guardscope_trace_<pid>.jsonl")
_ids = itertools.count()


def unwrap_compiled(model: torch.nn.Module) -> torch.nn.Module:
    """The module behind ``torch.compile(model)`` (names then match the original)."""
    orig = getattr(model, "_orig_mod", None)
    return orig if isinstance(orig, torch.nn.Module) else model


def already_compiled(model: torch.nn.Module) -> bool:
    """Whether the forward of ``model``'s class already has compiled code.

    Hooks added after that are ignored by it for submodules
    (``torch._dynamo.config.skip_nnmodule_hook_guards``): they never run.
    """
    try:
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list

        forward: Any = getattr(type(unwrap_compiled(model)), "forward", None)
        return bool(_debug_get_cache_entry_list(forward.__code__))
    except Exception:
        return False


def warn_if_compiled(model: torch.nn.Module, stacklevel: int = 2) -> None:
    """Warns (``GuardscopeWarning``) when hooks attached now would be ignored;
    ``stacklevel`` points at the user's call."""
    if already_compiled(model):
        warn(
            f"{type(unwrap_compiled(model)).__name__} already has compiled code; hooks added now are ignored by it "
            "for submodules and record nothing there (torch.compile does not guard on submodule hooks: "
            "torch._dynamo.config.skip_nnmodule_hook_guards). Attach hooks before the first "
            "compiled call, or call torch._dynamo.reset() after attaching so that it recompiles "
            "with them.",
            stacklevel,
        )


def resolve_output(output: Union[str, os.PathLike[str], None]) -> str:
    """The output path with ``<pid>`` and ``<rank>`` substituted."""
    return _paths.substitute(DEFAULT_OUTPUT if output is None else output)


def _stat_list(stats: Union[str, Iterable[str]]) -> list[str]:
    if isinstance(stats, str):
        stats = stats.split(",")
    return [s.strip() for s in stats if s.strip()]


class ActivationTrace:
    """Hooks recording activation stats of some modules of a model.

    Made by ``trace_activations``. Run-time controls (``set_step``,
    ``enable``/``disable``, ``set_steps``) change state in the Rust tracer
    only, so they never cause a recompile.
    """

    def __init__(
        self, native: _native.Tracer, modules: Iterable[str], handles: list[Any], mode: Mode, tracer_id: int
    ) -> None:
        self._native = native
        self._modules = list(modules)
        self._handles = handles
        self._mode = mode
        self._id = tracer_id
        self._path = str(native.path)

    @property
    def modules(self) -> list[str]:
        """Names of the hooked modules (as in ``model.named_modules()``)."""
        return list(self._modules)

    @property
    def mode(self) -> Mode:
        return self._mode

    @property
    def path(self) -> str:
        """The JSONL file the records go to."""
        return self._path

    @property
    def stats(self) -> list[str]:
        """The value stats recorded, in record order."""
        return self._native.stats

    @property
    def step(self) -> int:
        return self._native.step

    def set_step(self, step: int) -> None:
        """Stamps later records with ``step``. A change restarts the per-module
        ``call`` counts and flushes the records of the previous step."""
        step = int(step)
        _queue.drain(self._native)  # before the step changes: they belong to the old one
        self._native.set_step(step)

    @property
    def enabled(self) -> bool:
        """Whether calls are recorded: the ``enable``/``disable`` switch, and
        False for good once the file failed, after ``close()``, and in a
        forked child (which records only through traces it opens itself)."""
        return self._native.enabled

    @property
    def error(self) -> Optional[str]:
        """Why the file stopped being written (e.g. disk full), or None.
        The failure is also logged once as a warning; training goes on."""
        return self._native.error

    def enable(self) -> None:
        self._native.enable()

    def disable(self) -> None:
        """Stops recording (hooks stay registered; their calls return at once)."""
        self._native.disable()

    @property
    def steps(self) -> Optional[list[int]]:
        """The recorded steps (sorted), or None for every step."""
        return self._native.steps

    def set_steps(self, steps: Optional[Iterable[int]]) -> None:
        """Records only these steps from now on (None: every step)."""
        self._native.set_steps(None if steps is None else [int(s) for s in steps])

    @property
    def records(self) -> int:
        """Records written so far (those waiting on a device are handed over first)."""
        _queue.drain(self._native)
        return self._native.records

    def flush(self) -> None:
        _queue.drain(self._native)
        self._native.flush()

    def remove(self) -> None:
        """Removes every hook and stops recording, including in graphs already
        compiled with the hooks (their op calls become no-ops); flushes."""
        for handle in self._handles:
            handle.remove()
        self._handles = []
        _queue.drain(self._native)
        if TRACERS.pop(self._id, None) is not None:
            forget(self._native)
        self._native.flush()

    def close(self) -> None:
        """``remove()``, then closes the file."""
        self.remove()
        self._native.close()

    def __enter__(self) -> ActivationTrace:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False

    def __repr__(self) -> str:
        return (
            f"<ActivationTrace {len(self._modules)} modules, mode={self._mode!r}, "
            f"step={self.step}, enabled={self.enabled}, path={self._path!r}>"
        )


def trace_activations(
    model: torch.nn.Module,
    layers: Optional[str] = None,
    stats: Union[str, Sequence[Stat]] = DEFAULT_STATS,
    steps: Optional[Iterable[int]] = None,
    output: Union[str, os.PathLike[str], None] = None,
    mode: Mode = "op",
) -> ActivationTrace:
    """Hooks the modules of ``model`` whose name matches ``layers`` and records
    stats of their outputs, one JSON line per output tensor.

    ``layers``: regex searched (``re.search``) in ``named_modules()`` names;
    None or "" hooks every module. ``stats``: names among abs_mean, sum, min,
    max, mean, std, shape, dtype (a list or "a,b"). ``steps``: steps to
    record (None: all). ``output``: JSONL path, ``<pid>``/``<rank>``
    substituted, parent created; an unwritable path raises here.
    ``mode``: "op" (a custom op: no graph break, works with
    ``fullgraph=True``) or "disable" (``torch._dynamo.disable``: one graph
    break per hooked module); under CUDA graphs (``mode="reduce-overhead"``)
    op-mode hooks warn once and record as "disable" does (README: "The two
    modes"). Attach before the first compiled call.
    """
    return _trace_activations(model, layers, stats, steps, output, mode, stacklevel=3)


def _trace_activations(
    model: torch.nn.Module,
    layers: Optional[str],
    stats: Union[str, Sequence[Stat]],
    steps: Optional[Iterable[int]],
    output: Union[str, os.PathLike[str], None],
    mode: Mode,
    stacklevel: int,
) -> ActivationTrace:
    """``trace_activations``; its warnings point at the caller of the
    function calling this one (``stacklevel`` as ``warnings.warn`` counts from there)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    pattern = re.compile(layers) if layers else None
    root = unwrap_compiled(model)
    warn_if_compiled(model, stacklevel=stacklevel + 1)
    matched = [(name, module) for name, module in root.named_modules() if pattern is None or pattern.search(name)]
    trace = attach_modules(root, matched, stats, steps, output, mode)
    if not matched:
        warn(f"activation trace attached to 0 modules (pattern={layers!r})", stacklevel)
    return trace


def attach_modules(
    root: torch.nn.Module,
    matched: Sequence[Tuple[str, torch.nn.Module]],
    stats: Union[str, Iterable[str]],
    steps: Optional[Iterable[int]],
    output: Union[str, os.PathLike[str], None],
    mode: Mode,
) -> ActivationTrace:
    """Hooks exactly ``matched`` (``(name, module)`` pairs of ``root``)."""
    from guardscope import _op

    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if mode == "op" and _op.OP_ERROR is not None:
        raise RuntimeError(f"mode='op' needs torch.library.custom_op ({_op.OP_ERROR}); use mode='disable'")
    path = resolve_output(output)
    native = _native.Tracer(
        path,
        _stat_list(stats),
        [name for name, _ in matched],
        None if steps is None else [int(s) for s in steps],
    )
    if os.path.basename(str(native.path)) != os.path.basename(path):
        # Another process writes that file (two ranks that resolved one
        # `<rank>` before the process group existed): never truncated.
        logger.warning(
            "activation trace: %s is being written by another process; this one (pid %s) writes %s instead",
            path,
            os.getpid(),
            native.path,
        )
    tracer_id = next(_ids)
    TRACERS[tracer_id] = native
    _process.trace_opened()
    handles = []
    try:
        if mode == "op":
            token = torch.zeros(1, device=_device_of(root))
            parts = tuple(native.reduced_parts)
            hooks = [op_hook(token, tracer_id, i, parts) for i in range(len(matched))]
        else:
            hooks = [disable_hook(tracer_id, i) for i in range(len(matched))]
        for (_, module), hook in zip(matched, hooks):
            handles.append(module.register_forward_hook(hook))
    except BaseException:
        for handle in handles:
            handle.remove()
        TRACERS.pop(tracer_id, None)
        native.close()
        raise
    return ActivationTrace(native, [name for name, _ in matched], handles, mode, tracer_id)


def _device_of(module: torch.nn.Module) -> Any:
    for tensor in itertools.chain(module.parameters(), module.buffers()):
        return tensor.device
    return torch.device("cpu")


ENV_FLAG = "GUARDSCOPE_TRACE_ACTIVATIONS"


def attach_from_env(model: torch.nn.Module) -> Optional[ActivationTrace]:
    """``trace_activations`` configured by environment variables, or nothing.

    ``GUARDSCOPE_TRACE_ACTIVATIONS`` unset or "0": returns None and registers
    nothing. Otherwise ``GUARDSCOPE_TRACE_LAYERS`` (regex, "" = all),
    ``GUARDSCOPE_TRACE_STATS`` ("abs_mean,sum"), ``GUARDSCOPE_TRACE_OUTPUT``
    (``<tmp>/guardscope_trace_<pid>.jsonl``), ``GUARDSCOPE_TRACE_STEPS``
    ("0,15,31"; "" = all) and ``GUARDSCOPE_TRACE_MODE`` ("op") apply.
    """
    flag = os.environ.get(ENV_FLAG)
    if flag is None or flag == "0":
        return None
    layers = os.environ.get("GUARDSCOPE_TRACE_LAYERS", "")
    stats = os.environ.get("GUARDSCOPE_TRACE_STATS", "") or ",".join(DEFAULT_STATS)
    output = os.environ.get("GUARDSCOPE_TRACE_OUTPUT", "") or None
    mode: Any = os.environ.get("GUARDSCOPE_TRACE_MODE", "") or "op"  # checked by trace_activations
    steps_text = os.environ.get("GUARDSCOPE_TRACE_STEPS", "")
    try:
        steps = [int(s) for s in steps_text.split(",") if s.strip()] or None
    except ValueError:
        raise ValueError(f"GUARDSCOPE_TRACE_STEPS must be comma-separated integers, not {steps_text!r}") from None
    trace = _trace_activations(model, layers or None, stats, steps, output, mode, stacklevel=3)
    if trace.modules:
        logger.info("activation trace attached to %d modules (pattern=%r)", len(trace.modules), layers)
    return trace
