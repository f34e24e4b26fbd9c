"""Activation-trace forward hooks that never cause a recompile.

What a hook does under ``torch.compile`` decides whether it recompiles:
Dynamo traces the hook and guards on every Python value it reads, so a hook
that reads a flag or a step counter recompiles when they change. These hooks
read only constants (a tracer id, a module index, a token tensor); all state
that changes at run time lives in the Rust tracer and is read in the opaque
part: the custom op's body (``mode="op"``) or a ``torch._dynamo.disable``
function (``mode="disable"``).
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import tempfile
import types
from typing import Any, Callable, Iterable, Literal, Optional, Sequence, Tuple, Union, cast

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope import _native, _paths, _process, _stats
from guardscope._types import Mode, Stat
from guardscope._walk import _assume_constant, walk_outputs
from guardscope._warnings import warn

#: A forward hook: ``(module, args, output) -> None``.
Hook = Callable[[Any, Any, Any], None]

logger = logging.getLogger("guardscope")

MODES: Tuple[Mode, ...] = ("op", "disable")
DEFAULT_STATS: Tuple[Stat, ...] = ("abs_mean", "sum")
DEFAULT_OUTPUT = os.path.join(tempfile.gettempdir(), "guardscope_trace_<pid>.jsonl")
_ids = itertools.count()


def _own_frame_skipped(hook: Hook) -> Hook:
    """Gives ``hook`` a code object of its own that Dynamo never compiles as a
    frame, with everything it calls (run there, it records eagerly).

    Inside a compiled forward Dynamo inlines the hook, which is what op mode
    wants. But a hook that runs outside the traced region (the root module's,
    called after its compiled forward) would be compiled as a frame of its
    own, and every hook shares one code object: a frame of hooks that
    recompiles once per module, each with its own ``module_id``. A private
    code object per hook keeps any such cache per module; skipping it keeps
    the frame from existing at all. Returns ``hook``.
    """
    function = cast(types.FunctionType, hook)
    function.__code__ = function.__code__.replace()
    try:
        from torch._C._dynamo.eval_frame import set_code_exec_strategy
        from torch._dynamo.types import FrameAction, FrameExecStrategy

        set_code_exec_strategy(function.__code__, FrameExecStrategy(FrameAction.SKIP, FrameAction.SKIP))
    except Exception:  # an older torch without per-code strategies
        pass
    return hook


#: What op-mode hooks do in a graph compiled for CUDA graphs.
_RECORD_IN_GRAPH, _RECORD_BY_GRAPH_BREAK, _RECORD_NOTHING = 0, 1, 2


def _wants_cudagraphs(compiler_fn: Any) -> bool:
    """Whether the backend Dynamo hands graphs to captures them in CUDA graphs:
    ``torch.compile(mode="reduce-overhead")`` (and "max-autotune"), the
    ``triton.cudagraphs`` option or global config of inductor, or the
    ``cudagraphs`` backend. Follows the wrappers torch puts around it
    (``WrapBackendDebug._torchdynamo_orig_backend``), torch 2.11 to 2.15."""
    fn, inductor = compiler_fn, False
    for _ in range(8):
        if fn is None:
            break
        name = getattr(fn, "compiler_name", None) or getattr(fn, "__name__", None)
        if name == "cudagraphs":
            return True
        config = getattr(fn, "config", None)
        if name == "inductor":
            inductor = True
            if isinstance(config, dict) and "triton.cudagraphs" in config:
                return bool(config["triton.cudagraphs"])
        fn = getattr(fn, "_torchdynamo_orig_backend", None)
    if inductor:
        from torch._inductor import config as inductor_config

        return bool(inductor_config.triton.cudagraphs)
    return False


@_assume_constant
def _under_cudagraphs(tracer_id: int) -> int:
    """What an op-mode hook traced now must do about CUDA graphs.

    Run by Dynamo at trace time, its result baked in (no guard, no graph
    break). A CUDA graph replay runs no Python, so the op's body, which
    records, would run at the warm-up and capture only (the capture even
    fails on its device-to-host copy): op mode records step 0 and nothing
    after. The hooks then record as ``mode="disable"`` does, through a graph
    break per hooked module (the pieces between are still captured), or,
    where a graph break would fail the user's compile (``fullgraph=True``,
    ``error_on_graph_break``), record nothing in that graph. Inductor decides
    later, per graph, whether it really captures (not for CPU tensors, for
    one); the hook cannot know that here, so the request alone decides.
    """
    try:
        from torch._dynamo.symbolic_convert import InstructionTranslator

        tx = InstructionTranslator.current_tx()
        if not _wants_cudagraphs(tx.output.compiler_fn):
            return _RECORD_IN_GRAPH
        strict = bool(getattr(tx, "one_graph", False) or getattr(tx, "error_on_graph_break", False))
    except Exception:  # a torch whose internals moved: keep op mode
        return _RECORD_IN_GRAPH
    from guardscope import _op

    native = _op.TRACERS.get(tracer_id)
    if native is not None:
        key = (id(native), "cudagraphs")
        if key not in _stats._WARNED:
            _stats._WARNED.add(key)
            if strict:
                logger.warning(
                    "activation trace: mode='op' cannot record under CUDA graphs "
                    "(torch.compile mode='reduce-overhead', or triton.cudagraphs): a replayed graph runs no "
                    "Python. With fullgraph=True no mode can (mode='disable' needs graph breaks), so these "
                    "hooks record nothing inside this compiled graph; calls outside it are recorded. Compile "
                    "without fullgraph=True to record through graph breaks, or without CUDA graphs."
                )
            else:
                logger.warning(
                    "activation trace: mode='op' cannot record under CUDA graphs "
                    "(torch.compile mode='reduce-overhead', or triton.cudagraphs): a replayed graph runs no "
                    "Python. The hooks record as mode='disable' does instead: one graph break per hooked "
                    "module, every step recorded."
                )
    return _RECORD_NOTHING if strict else _RECORD_BY_GRAPH_BREAK


def _op_hook(token: Any, tracer_id: int, module_id: int, parts: Tuple[str, ...]) -> Hook:
    from guardscope import _op

    op = torch.ops.guardscope.record_activations
    stats_op = torch.ops.guardscope.record_stats
    reduce_in_graph = _stats.reduce_in_graph
    for_graph = _stats.for_graph
    record_output = _op.record_output
    record_by_graph_break = torch._dynamo.disable(record_output)
    sep = _op.SEP
    is_compiling = torch.compiler.is_compiling if hasattr(torch, "compiler") else torch._dynamo.is_compiling

    def guardscope_activation_hook(module: Any, args: Any, output: Any) -> None:
        if is_compiling():
            # Traced by Dynamo (is_compiling() is a constant True there): the
            # graph reduces the outputs itself, which the compiler fuses into
            # the kernels producing them, and gets one opaque op call that
            # records the few numbers, run with live values every step.
            under_cudagraphs = _under_cudagraphs(tracer_id)
            if under_cudagraphs == _RECORD_BY_GRAPH_BREAK:
                record_by_graph_break(tracer_id, module_id, output)
                return
            if under_cudagraphs == _RECORD_NOTHING:
                return
            found, whole = for_graph(walk_outputs(output), tracer_id)
            if not found:
                return
            reduced = None if whole else reduce_in_graph(found, parts, sep)
            if reduced is not None:
                stats_op(token, reduced[0], reduced[1], tracer_id, module_id, reduced[2])
            else:
                op(token, [t.detach() for _, t in found], tracer_id, module_id, sep.join([p for p, _ in found]))
        else:
            # Eager: the op's body without the ~10 us dispatcher round trip.
            record_output(tracer_id, module_id, output)

    return _own_frame_skipped(guardscope_activation_hook)


def _disable_hook(tracer_id: int, module_id: int) -> Hook:
    from guardscope import _op

    record_output = _op.record_output

    def guardscope_activation_hook(module: Any, args: Any, output: Any) -> None:
        record_output(tracer_id, module_id, output)

    return torch._dynamo.disable(guardscope_activation_hook)  # type: ignore[no-any-return]


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
        _stats.drain(self._native)  # before the step changes: they belong to the old one
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
        _stats.drain(self._native)
        return self._native.records

    def flush(self) -> None:
        _stats.drain(self._native)
        self._native.flush()

    def remove(self) -> None:
        """Removes every hook and stops recording, including in graphs already
        compiled with the hooks (their op calls become no-ops); flushes."""
        from guardscope import _op

        for handle in self._handles:
            handle.remove()
        self._handles = []
        _stats.drain(self._native)
        if _op.TRACERS.pop(self._id, None) is not None:
            _stats.forget(self._native)
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
    native = _native.Tracer(
        resolve_output(output),
        _stat_list(stats),
        [name for name, _ in matched],
        None if steps is None else [int(s) for s in steps],
    )
    tracer_id = next(_ids)
    _op.TRACERS[tracer_id] = native
    _process.trace_opened()
    handles = []
    try:
        if mode == "op":
            token = torch.zeros(1, device=_device_of(root))
            parts = tuple(native.reduced_parts)
            hooks = [_op_hook(token, tracer_id, i, parts) for i in range(len(matched))]
        else:
            hooks = [_disable_hook(tracer_id, i) for i in range(len(matched))]
        for (_, module), hook in zip(matched, hooks):
            handles.append(module.register_forward_hook(hook))
    except BaseException:
        for handle in handles:
            handle.remove()
        _op.TRACERS.pop(tracer_id, None)
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
