"""Statistics of module output tensors recorded outside a compiled graph
(eager hooks, ``mode="disable"``, and outputs a graph cannot reduce), one
record per tensor either way:

- CPU strided tensors: ``detach().float()`` (no copy for float32), made
  contiguous, and its buffer read once by Rust, which computes every stat in
  one pass with float64 sums. No torch reduction, no ``.item()``.
- Other devices: each tensor is reduced on its device to the parts the Rust
  summary needs (as in a compiled graph, ``_in_graph``), a bounded piece at
  a time: no temporary of the whole tensor (no ``abs()``, no float64 copy),
  only of a piece of at most ``PIECE`` elements. The parts stay on the
  device in the step's queue (``_queue``); no value is read per module call.
- If a route fails (sparse, quantized, meta tensors...), each stat is
  computed on its own; a stat that fails is recorded as ``"<error: ...>"``.

Nothing here raises into the model's forward: ``record_call`` logs the
first failure of a trace and carries on.
"""

from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple, Union

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope import _native
from guardscope._queue import FIELD_SEP, SEP, defer
from guardscope._tracers import error_text, warn_once

#: A tensor of one module call: ``(name, tensor, shape, dtype name, route)``
#: (route: True for the CPU buffer, False for the device, None for each stat alone).
_Item = Tuple[str, Any, Tuple[int, ...], str, Optional[bool]]
#: A value stat as Rust takes it: a number, None (no value) or the error text.
Value = Union[float, str, None]

_DTYPE_NAMES: dict[Any, str] = {}


def _dtype_name(dtype: Any) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def record_call(native: _native.Tracer, module_id: int, names: Sequence[str], tensors: Sequence[Any]) -> None:
    """Records one call of module ``module_id``: ``tensors`` named ``names``."""
    try:
        call = native.begin_call(module_id)
        if call < 0:
            return
        _record_tensors(native, module_id, call, names, tensors)
    except Exception as exc:  # a hook must never break the forward pass
        warn_once(native, "recording", exc)


_STRIDED = torch.strided
_FLOAT32 = torch.float32
_FLOAT64 = torch.float64


def _record_tensors(native: _native.Tracer, module_id: int, call: int, names: Sequence[str], tensors: Sequence[Any]) -> None:
    # Records are written in output order. Tensors off the CPU are summarized
    # first, together, so that they cost one device-to-host copy.
    try:
        all_cpu = all(t.is_cpu and t.layout is _STRIDED and not t.is_complex() for t in tensors)
    except Exception:
        all_cpu = False
    if not all_cpu:
        _record_mixed(native, module_id, call, names, tensors)
        return
    for name, t in zip(names, tensors):
        if not _record_cpu(native, module_id, name, call, t):
            _record_each_stat(native, module_id, name, call, t, tuple(t.shape), _dtype_name(t.dtype))


def _record_cpu(native: _native.Tracer, module_id: int, name: str, call: int, t: Any) -> bool:
    """The fast route: Rust reads the float32 buffer. False if it failed."""
    try:
        x = t if t.dtype is _FLOAT32 else t.detach().float()
        if not x.is_contiguous():
            x = x.contiguous()
        native.record_f32(module_id, name, call, x.data_ptr(), x.numel(), t.shape, _dtype_name(t.dtype))
        return True
    except Exception:
        return False


def _record_mixed(native: _native.Tracer, module_id: int, call: int, names: Sequence[str], tensors: Sequence[Any]) -> None:
    items: List[_Item] = []
    for name, t in zip(names, tensors):
        try:
            # Complex tensors take the careful route (torch's complex
            # semantics); the others off the CPU the one-transfer route.
            # Meta tensors have no values to reduce or copy: careful route too.
            fast = None if t.is_complex() or t.is_meta else t.is_cpu and t.layout is _STRIDED
            items.append((name, t, tuple(t.shape), _dtype_name(t.dtype), fast))
        except Exception:
            items.append((name, t, (), "unknown", None))
    on_device = [item for item in items if item[4] is False]
    deferred = _defer_on_device(native, module_id, call, on_device) if on_device else False
    for name, t, shape, dtype, cpu_strided in items:
        if cpu_strided and _record_cpu(native, module_id, name, call, t):
            continue
        if cpu_strided is False and deferred:
            continue
        _record_each_stat(native, module_id, name, call, t, shape, dtype)


def _defer_on_device(native: _native.Tracer, module_id: int, call: int, items: List[_Item]) -> bool:
    """Reduces ``items`` (tensors off the CPU) on their device and queues the
    parts as one module call; False (nothing queued) if that fails."""
    try:
        parts = tuple(native.reduced_parts)
        with torch.no_grad():
            reduced = [reduce_pieces(t.detach(), parts) for _, t, _, _, _ in items]
            stacked = reduced[0] if len(reduced) == 1 else torch.cat(reduced)
        layout = SEP.join(name + FIELD_SEP + dtype + FIELD_SEP + str(len(shape)) for name, _, shape, dtype, _ in items)
        sizes = [d for _, _, shape, _, _ in items for d in shape]
    except Exception:
        return False
    defer(native, module_id, call, layout, sizes, stacked)
    return True


#: The most elements converted to float64 at once by ``reduce_pieces``.
PIECE = 1 << 20

# Converted to float32 exactly, so straight to float64 gives the values of
# ``float().double()`` without the float32 temporary.
_EXACT_IN_FLOAT32 = frozenset(
    {torch.float32, torch.float16, torch.bfloat16, torch.bool, torch.uint8, torch.int8, torch.int16}
)


def reduce_pieces(x: Any, parts: Tuple[str, ...]) -> Any:
    """The reduced ``parts`` (``Tracer.reduced_parts``) of a strided real
    tensor, as a 1-D float64 tensor on its device, equal to what a graph
    computes (``reduce_in_graph``) and hence to the Rust pass's values.

    No temporary the size of ``x``: it is read in pieces of at most ``PIECE``
    elements along its longest dimension (views), each converted once into a
    float64 buffer that every part reads in place (the sum, the min and max,
    the sum of absolute values as an L1 norm, then shifted in place for the
    variance sums). No value leaves the device.
    """
    # Each op here is a kernel launch per hooked module on a GPU, where the
    # launches, not the reductions, are the cost: nothing is computed that
    # the wanted parts do not read.
    n = x.numel()
    if n == 0:
        return torch.zeros(len(parts), dtype=_FLOAT64, device=x.device)
    want = set(parts)
    first = x[(0,) * x.dim()].float().double() if "shifted_sum" in want else None
    exact = x.dtype in _EXACT_IN_FLOAT32
    dim = max(range(x.dim()), key=lambda i: x.shape[i]) if x.dim() else None
    if dim is None or n <= PIECE:
        pieces = [x]
    else:
        per_index = n // x.shape[dim]
        pieces = x.split(max(1, PIECE // max(1, per_index)), dim=dim)
    acc: dict[str, List[Any]] = {part: [] for part in parts}
    for piece in pieces:
        d = torch.empty(piece.shape, dtype=_FLOAT64, device=x.device)
        d.copy_(piece if exact else piece.float())
        d = d.view(-1)
        acc["sum"].append(d.sum())
        if "min" in want:
            lo, hi = torch.aminmax(d)
            acc["min"].append(lo)
            acc["max"].append(hi)
        if "abs_sum" in want:
            acc["abs_sum"].append(torch.linalg.vector_norm(d, 1))
        if "shifted_sum" in want:
            d.sub_(first)
            acc["shifted_sum"].append(d.sum())
            acc["shifted_squares"].append(torch.dot(d, d))
    values = []
    for part in parts:
        got = acc[part]
        if len(got) == 1:
            values.append(got[0])
        elif part == "min":
            values.append(torch.stack(got).amin())
        elif part == "max":
            values.append(torch.stack(got).amax())
        else:
            values.append(torch.stack(got).sum())
    if n < 2 and "shifted_sum" in want:
        # As in the graph: no variance below two elements (Rust ignores them).
        values = [values[0] if part in ("shifted_sum", "shifted_squares") else v for part, v in zip(parts, values)]
    return torch.stack(values)


def _record_each_stat(
    native: _native.Tracer, module_id: int, name: str, call: int, t: Any, shape: Tuple[int, ...], dtype: str
) -> None:
    """The careful route: every stat on its own, a failure recorded in its place."""
    values: List[Value] = []
    failure = ""
    try:
        # `float()` of a complex tensor keeps the real part (and warns):
        # complex tensors are reduced as they are, with torch's semantics.
        x = t.detach() if t.is_complex() else t.detach().float()
    except Exception as exc:
        x, failure = None, error_text(exc)
    for stat in native.stats:
        if x is None:
            values.append(failure)
            continue
        try:
            values.append(_one_stat(x, stat))
        except Exception as exc:
            values.append(error_text(exc))
    native.record_values(module_id, name, call, values, shape, dtype)


def _one_stat(x: Any, stat: str) -> Optional[float]:
    if x.is_complex():
        return _one_complex_stat(x, stat)
    n = x.numel()
    if stat == "sum":
        return float(x.sum(dtype=torch.float64))
    if stat == "mean":
        return float(x.sum(dtype=torch.float64)) / n if n else math.nan
    if stat == "abs_mean":
        return float(x.abs().sum(dtype=torch.float64)) / n if n else math.nan
    if stat == "min":
        return float(x.min()) if n else None
    if stat == "max":
        return float(x.max()) if n else None
    if stat == "std":
        return float(x.double().std()) if n > 1 else math.nan
    raise ValueError(f"unknown stat {stat!r}")


def _one_complex_stat(x: Any, stat: str) -> float:
    """A stat of a complex tensor as torch defines it, or an error where its
    value is not a real number (sum, mean) or torch refuses (min, max)."""
    n = x.numel()
    if stat in ("sum", "mean"):
        raise ValueError(f"the {stat} of a complex tensor is complex, not a real number")
    if stat == "abs_mean":  # the mean of |z|
        return float(x.abs().sum(dtype=torch.float64)) / n if n else math.nan
    if stat == "min":
        return float(x.min())  # torch raises: complex numbers are not ordered
    if stat == "max":
        return float(x.max())
    if stat == "std":  # torch's: real, from |z - mean|
        return float(x.to(torch.complex128).std()) if n > 1 else math.nan
    raise ValueError(f"unknown stat {stat!r}")
