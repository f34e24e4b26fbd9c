"""The forward hooks themselves: what one does when Dynamo traces it inside a
compiled forward (reduce in the graph, one opaque op call) and when it runs
eagerly (record at once), and what it does under CUDA graphs.

Hooks read only constants (a tracer id, a module index, a token tensor), so
they add no guard: see ``_hooks`` for the trace they belong to.
"""

from __future__ import annotations

import logging
import types
from typing import Any, Callable, Tuple, cast

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope import _in_graph
from guardscope._tracers import TRACERS, first_time
from guardscope._walk import _assume_constant, walk_outputs

#: A forward hook: ``(module, args, output) -> None``.
Hook = Callable[[Any, Any, Any], None]

logger = logging.getLogger("guardscope")


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
    native = TRACERS.get(tracer_id)
    if native is not None and first_time(native, "cudagraphs"):
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


def op_hook(token: Any, tracer_id: int, module_id: int, parts: Tuple[str, ...]) -> Hook:
    from guardscope import _op

    op = torch.ops.guardscope.record_activations
    stats_op = torch.ops.guardscope.record_stats
    reduce_in_graph = _in_graph.reduce_in_graph
    for_graph = _in_graph.for_graph
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


def disable_hook(tracer_id: int, module_id: int) -> Hook:
    from guardscope import _op

    record_output = _op.record_output

    def guardscope_activation_hook(module: Any, args: Any, output: Any) -> None:
        record_output(tracer_id, module_id, output)

    return torch._dynamo.disable(guardscope_activation_hook)  # type: ignore[no-any-return]
