"""The custom op the ``mode="op"`` hooks call, and the registry of live tracers.

Under ``torch.compile`` the op is opaque: Dynamo puts one call into the graph
(no graph break, fine with ``fullgraph=True``) and never looks inside, so the
run-time state the body reads (step, enabled, recorded steps, all in the
Rust tracer) can change without a recompile. The op is declared as mutating
a one-element token tensor, so no backend can drop it as dead code; it runs
every step with the live tensors. In eager mode the hooks skip the dispatcher
and call the same body through ``record_output``.

If this torch cannot define the op (no ``torch.library.custom_op`` before
2.4), ``OP_ERROR`` says why and only ``mode="disable"`` is available.
"""

import torch

from guardscope import _stats
from guardscope._walk import walk_outputs

#: Live tracers by id. Hooks (and compiled graphs) carry only the int id, so
#: removing a trace from here turns calls still baked into graphs into no-ops.
TRACERS = {}

#: Separates tensor names in the op's single string argument.
SEP = "\x1f"

OP_NAME = "guardscope::record_activations"


def record_call(tracer_id, module_id, names, tensors):
    """The op's body: record one module call (``names`` joined by SEP)."""
    native = TRACERS.get(tracer_id)
    if native is not None:
        _stats.record_call(native, module_id, names.split(SEP), tensors)


def record_output(tracer_id, module_id, output):
    """The same, from the module's output: the body of the eager and
    ``torch._dynamo.disable`` hooks. Never raises."""
    native = TRACERS.get(tracer_id)
    if native is None:
        return
    try:
        found = walk_outputs(output)
    except Exception as exc:
        _stats.warn_once(native, "walking a module output", exc)
        return
    if found:
        _stats.record_call(native, module_id, [p for p, _ in found], [t for _, t in found])


def _define_op():
    @torch.library.custom_op(OP_NAME, mutates_args=("token",))
    def record_activations(
        token: torch.Tensor, tensors: list[torch.Tensor], tracer_id: int, module_id: int, names: str
    ) -> None:
        """Records the stats of ``tensors`` (one module call) for tracer ``tracer_id``."""
        record_call(tracer_id, module_id, names, tensors)

    return record_activations


try:
    record_activations = _define_op()
    OP_ERROR = None
except Exception as exc:  # e.g. a torch without torch.library.custom_op (< 2.4)
    record_activations = None
    OP_ERROR = f"{type(exc).__name__}: {exc}"
