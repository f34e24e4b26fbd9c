"""The custom ops the ``mode="op"`` hooks call (the live tracers they look up
are in ``_tracers``).

Under ``torch.compile`` the ops are opaque: Dynamo puts one call per hooked
module call into the graph (no graph break, fine with ``fullgraph=True``) and
never looks inside, so the run-time state the bodies read (step, enabled,
recorded steps, all in the Rust tracer) can change without a recompile. Both
ops are declared as mutating a one-element token tensor, so no backend can
drop them as dead code; they run every step with live values.

- ``guardscope::record_stats`` (the usual one under compile) takes the
  stats already reduced in the graph: a small float64 tensor, the sizes of
  the tensors and a layout string (see ``_in_graph.reduce_in_graph``).
- ``guardscope::record_activations`` takes the whole output tensors; the
  hooks use it for outputs the graph cannot reduce.

In eager mode the hooks skip the dispatcher and call the body of the second
directly through ``record_output``.

If this torch cannot define the ops (no ``torch.library.custom_op`` before
2.4), ``OP_ERROR`` says why and only ``mode="disable"`` is available.
"""

# No `from __future__ import annotations` here: torch.library.custom_op reads
# the op's annotations as objects.
from typing import Any, List, Optional, Sequence

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope import _in_graph, _queue, _stats
from guardscope._tracers import TRACERS, warn_once
from guardscope._walk import walk_outputs

#: Separates tensor names in the op's single string argument.
SEP = "\x1f"

OP_NAME = "guardscope::record_activations"
STATS_OP_NAME = "guardscope::record_stats"


def record_call(tracer_id: int, module_id: int, names: str, tensors: List[Any]) -> None:
    """The op's body: record one module call (``names`` joined by SEP)."""
    native = TRACERS.get(tracer_id)
    if native is not None:
        try:
            split, tensors = _in_graph.from_graph(names.split(SEP), tensors)
        except Exception as exc:  # the op's body never raises into the graph
            warn_once(native, "recording", exc)
            return
        _stats.record_call(native, module_id, split, tensors)


def record_output(tracer_id: int, module_id: int, output: object) -> None:
    """The same, from the module's output: the body of the eager and
    ``torch._dynamo.disable`` hooks. Never raises."""
    native = TRACERS.get(tracer_id)
    if native is None:
        return
    try:
        found = walk_outputs(output)
    except Exception as exc:
        warn_once(native, "walking a module output", exc)
        return
    if found:
        _stats.record_call(native, module_id, [p for p, _ in found], [t for _, t in found])


def record_stats(tracer_id: int, module_id: int, layout: str, sizes: Sequence[int], stats: Any) -> None:
    """The body of the stats op: record one module call from reduced stats."""
    native = TRACERS.get(tracer_id)
    if native is not None:
        _queue.record_reduced(native, module_id, layout, sizes, stats)


def _define_op() -> Any:
    def record_activations(
        token: torch.Tensor, tensors: list[torch.Tensor], tracer_id: int, module_id: int, names: str
    ) -> None:
        """Records the stats of ``tensors`` (one module call) for tracer ``tracer_id``."""
        record_call(tracer_id, module_id, names, tensors)

    return torch.library.custom_op(OP_NAME, mutates_args=("token",))(record_activations)


def _define_stats_op() -> Any:
    # Defined through the low-level Library API, not custom_op: a custom_op
    # call goes through Python autograd and view-tracking wrappers (~15 us a
    # call, measured here) and the graph makes one call per hooked module
    # call; this one costs ~4 us. The token is declared mutated (Tensor(a!))
    # so no backend drops the call; functionalization wraps it in
    # auto_functionalized like any mutating op.
    lib = torch.library.Library("guardscope", "FRAGMENT")
    lib.define(
        "record_stats(Tensor(a!) token, Tensor stats, SymInt[] sizes, int tracer_id, int module_id, str layout) -> ()"
    )

    def kernel(token: Any, stats: Any, sizes: Sequence[int], tracer_id: int, module_id: int, layout: str) -> None:
        record_stats(tracer_id, module_id, layout, sizes, stats)

    def fake(token: Any, stats: Any, sizes: Sequence[int], tracer_id: int, module_id: int, layout: str) -> None:
        return None

    lib.impl("record_stats", kernel, "CompositeExplicitAutograd")
    torch.library.register_fake(STATS_OP_NAME, fake, lib=lib)
    return lib


try:
    record_activations = _define_op()
    _STATS_LIBRARY = _define_stats_op()
    OP_ERROR: Optional[str] = None
except Exception as exc:  # e.g. a torch without torch.library.custom_op (< 2.4)
    record_activations = _STATS_LIBRARY = None
    OP_ERROR = f"{type(exc).__name__}: {exc}"
