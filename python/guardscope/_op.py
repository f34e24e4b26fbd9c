"""The custom op the ``mode="op"`` hooks call, and the registry of live tracers.

Under ``torch.compile`` the op is opaque: Dynamo puts one call into the graph
(no graph break, fine with ``fullgraph=True``) and never looks inside, so the
run-time state the body reads (step, enabled, recorded steps, all in the
Rust tracer) can change without a recompile. The op is declared as mutating
a one-element token tensor, so no backend can drop it as dead code; it runs
every step with the live tensors. In eager mode it is an ordinary call.
"""

import torch

from guardscope import _stats

#: Live tracers by id. Hooks (and compiled graphs) carry only the int id, so
#: removing a trace from here turns calls still baked into graphs into no-ops.
TRACERS = {}

#: Separates tensor names in the op's single string argument.
SEP = "\x1f"

OP_NAME = "guardscope::record_activations"


def record_call(tracer_id, module_id, names, tensors):
    """The body shared by both modes: record one module call."""
    native = TRACERS.get(tracer_id)
    if native is not None:
        _stats.record_call(native, module_id, names.split(SEP), tensors)


@torch.library.custom_op(OP_NAME, mutates_args=("token",))
def record_activations(
    token: torch.Tensor, tensors: list[torch.Tensor], tracer_id: int, module_id: int, names: str
) -> None:
    """Records the stats of ``tensors`` (one module call) for tracer ``tracer_id``."""
    record_call(tracer_id, module_id, names, tensors)
