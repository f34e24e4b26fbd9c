"""The reductions an op-mode hook puts into a compiled graph.

Inside a compiled graph (``mode="op"`` under ``torch.compile``),
``reduce_in_graph`` puts the reductions into the graph itself, where the
compiler fuses them into the kernels that produce the tensors, and the op
hands the small result to Rust (``_queue.record_reduced``): the same parts
as the one-pass kernel (float64 sums, shifted variance sums, float32
min/max), so the same records. Those parts wait in the device queue
(``_queue``). Everything here is traced by Dynamo, never run eagerly,
except ``from_graph``, which runs in the op's body.
"""

from __future__ import annotations

import logging
from typing import Any, List, Optional, Tuple

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope._queue import FIELD_SEP
from guardscope._tracers import TRACERS, first_time
from guardscope._walk import Found, _assume_constant

try:
    from torch.fx.experimental.symbolic_shapes import statically_known_true
except ImportError:  # older torch: only plain ints are "known"

    def statically_known_true(condition: Any) -> bool:
        return condition is True


logger = logging.getLogger("guardscope")

_STRIDED = torch.strided

#: Ends the name of a complex tensor handed to ``record_activations`` as its
#: ``view_as_real`` (the op's body views it as complex again).
COMPLEX_MARK = "\x1d"


@_assume_constant
def _skipped_in_graph(tracer_id: int, what: str) -> int:
    """Warns (once per trace) that a compiled graph leaves some tensors out.

    Dynamo runs this at trace time and bakes in its result (so the logging
    call is neither traced nor a graph break); it runs again only when the
    hook is traced again."""
    native = TRACERS.get(tracer_id)
    if native is not None and first_time(native, "skipped in graph"):
        logger.warning(
            "activation trace: %s output tensors are not recorded inside compiled graphs "
            "(nothing there can reduce them; eager calls record them); the model and its compile are "
            "unaffected",
            what,
        )
    return 0


def for_graph(found: List[Found], tracer_id: int) -> Tuple[List[Found], bool]:
    """The ``(name, tensor)`` pairs a compiled graph can hand on, and whether
    they need the whole-tensor op.

    Traced by Dynamo, never run eagerly. Tensors without values (meta),
    other layouts (sparse...) and quantized ones are left out, with one
    warning per trace: passing them into the graph's op makes backends fail
    the user's compile (inductor: ``auto_functionalized_v2 was not
    removed``). A complex tensor goes to the whole-tensor op as its
    ``view_as_real`` (a real view inductor handles), its name marked, so
    that the op's body records it with torch's complex semantics as eager
    does. Reads only what the graph is specialized on (device, layout,
    dtype): no guard, no recompile.
    """
    kept: List[Found] = []
    whole = False
    for name, t in found:
        if t.device.type == "meta":
            _skipped_in_graph(tracer_id, "meta-device")
        elif t.layout != _STRIDED:
            _skipped_in_graph(tracer_id, "non-strided (e.g. sparse)")
        elif t.is_quantized:
            _skipped_in_graph(tracer_id, "quantized")
        elif t.is_complex():
            kept.append((name + COMPLEX_MARK, torch.view_as_real(t.detach())))
            whole = True
        else:
            kept.append((name, t))
    return kept, whole


def from_graph(names: List[str], tensors: List[Any]) -> Tuple[List[str], List[Any]]:
    """Undoes ``for_graph``'s marks in the op's body: complex tensors again."""
    if not any(name.endswith(COMPLEX_MARK) for name in names):
        return names, tensors
    out_names: List[str] = []
    out_tensors: List[Any] = []
    for name, t in zip(names, tensors):
        if name.endswith(COMPLEX_MARK):
            name = name[: -len(COMPLEX_MARK)]
            t = torch.view_as_complex(t if t.stride(-1) == 1 else t.contiguous())
        out_names.append(name)
        out_tensors.append(t)
    return out_names, out_tensors


def reduce_in_graph(found: List[Found], parts: Tuple[str, ...], sep: str) -> Optional[Tuple[Any, List[Any], str]]:
    """The reductions of a module's output tensors, to be put in the graph.

    Traced by Dynamo, never run eagerly. ``found`` are ``(name, tensor)``
    pairs, ``parts`` the tracer's ``reduced_parts``. Returns ``(stats,
    sizes, layout)`` for the stats op, or None when some tensor cannot be
    reduced here (not strided, complex, quantized, or a size whose emptiness
    is not known at trace time); the hook then hands the whole tensors over.

    Everything decided here depends only on what the graph is specialized
    on anyway (dtype, layout, number of dims, and sizes only where
    ``statically_known_true`` settles them without a guard), so it adds no
    guard and no recompile. The values match the one-pass kernel's:
    float64 sums of ``detach().float()``, shifted by the first element for
    the variance, and min/max in float32 (they propagate NaN as the kernel).
    """
    values: List[Any] = []
    sizes: List[Any] = []
    layout: List[str] = []
    for name, t in found:
        if t.layout != _STRIDED or t.is_complex() or t.is_quantized:
            return None
        n = t.numel()
        several = statically_known_true(n >= 2)
        some = several or statically_known_true(n >= 1)
        if not several and not statically_known_true(n < 2):
            return None
        x = t.detach().float()
        d = x.double()
        total = d.sum()
        shifted: Any = d - d.flatten()[0] if several and "shifted_sum" in parts else None
        for part in parts:
            # Parts without meaning here (variance sums below two elements,
            # min/max of an empty tensor) get `total`; Rust ignores them.
            if part == "sum":
                values.append(total)
            elif part == "abs_sum":
                values.append(d.abs().sum())
            elif part == "shifted_sum":
                values.append(shifted.sum() if several else total)
            elif part == "shifted_squares":
                values.append((shifted * shifted).sum() if several else total)
            elif part == "min":
                values.append(x.amin().double() if some else total)
            elif part == "max":
                values.append(x.amax().double() if some else total)
            else:
                return None
        sizes.extend(t.shape)
        layout.append(name + FIELD_SEP + str(t.dtype) + FIELD_SEP + str(t.dim()))
    return torch.stack(values), sizes, sep.join(layout)
