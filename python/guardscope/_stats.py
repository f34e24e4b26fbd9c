"""Statistics of module output tensors, handed to the Rust tracer.

Outside a compiled graph (eager hooks, ``mode="disable"``, and outputs a
graph cannot reduce), one record per tensor either way:

- CPU strided tensors: ``detach().float()`` (no copy for float32), made
  contiguous, and its buffer read once by Rust, which computes every stat in
  one pass with float64 sums. No torch reduction, no ``.item()``.
- Other devices: each tensor is reduced on its device to the parts the Rust
  summary needs (as in a compiled graph, below), a bounded piece at a time:
  no temporary of the whole tensor (no ``abs()``, no float64 copy), only of
  a piece of at most ``PIECE`` elements. The parts stay on the device in the
  trace's queue; no value is read per module call (no host sync there).
- If a route fails (sparse, quantized, meta tensors...), each stat is
  computed on its own; a stat that fails is recorded as ``"<error: ...>"``.

Inside a compiled graph (``mode="op"`` under ``torch.compile``),
``reduce_in_graph`` puts the reductions into the graph itself, where the
compiler fuses them into the kernels that produce the tensors, and the op
hands the small result to Rust (``record_reduced``): the same parts as the
one-pass kernel (float64 sums, shifted variance sums, float32 min/max), so
the same records. Those parts also wait in the queue.

The queue (``defer``/``drain``) is emptied when the step changes, on
``flush()``/``close()``, at exit, and when it holds ``MAX_QUEUED`` calls:
all its parts are concatenated per device and copied to the host at once
(into pinned memory, non-blocking, then one wait on CUDA), and Rust records
them. So a device pays one transfer and one wait per step, not per module.

Nothing here raises into the model's forward: ``record_call`` and
``record_reduced`` log the first failure of a trace and carry on.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from typing import Any, List, Optional, Sequence, Tuple, Union

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope import _native
from guardscope._walk import Found, _assume_constant

#: One queued module call: ``(module_id, call, layout, sizes, parts)``.
Queued = Tuple[int, int, str, List[int], Any]
#: A tensor of one module call: ``(name, tensor, shape, dtype name, route)``
#: (route: True for the CPU buffer, False for the device, None for each stat alone).
_Item = Tuple[str, Any, Tuple[int, ...], str, Optional[bool]]
#: A value stat as Rust takes it: a number, None (no value) or the error text.
Value = Union[float, str, None]

try:
    from torch.fx.experimental.symbolic_shapes import statically_known_true
except ImportError:  # older torch: only plain ints are "known"

    def statically_known_true(condition: Any) -> bool:
        return condition is True


logger = logging.getLogger("guardscope")

_DTYPE_NAMES: dict[Any, str] = {}
_WARNED: set[Tuple[int, str]] = set()


def _dtype_name(dtype: Any) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def _error_text(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()[0]
    return text if len(text) <= 200 else text[:197] + "..."


def warn_once(native: _native.Tracer, what: str, exc: BaseException) -> None:
    """Logs the first failure of each kind per tracer (tracers are alive, and
    their ids unique, while registered; ``forget`` runs when they leave)."""
    key = (id(native), what)
    if key not in _WARNED:
        _WARNED.add(key)
        logger.warning("activation trace: %s failed (%s); the model is unaffected", what, _error_text(exc))


def forget(native: _native.Tracer) -> None:
    _WARNED.difference_update({key for key in _WARNED if key[0] == id(native)})


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

#: Separates the fields of one tensor in the stats op's layout string.
FIELD_SEP = "\x1e"

#: Separates the tensors of a layout string (``_op.SEP``).
SEP = "\x1f"


#: Ends the name of a complex tensor handed to ``record_activations`` as its
#: ``view_as_real`` (the op's body views it as complex again).
COMPLEX_MARK = "\x1d"


@_assume_constant
def _skipped_in_graph(tracer_id: int, what: str) -> int:
    """Warns (once per trace) that a compiled graph leaves some tensors out.

    Dynamo runs this at trace time and bakes in its result (so the logging
    call is neither traced nor a graph break); it runs again only when the
    hook is traced again."""
    from guardscope import _op

    native = _op.TRACERS.get(tracer_id)
    if native is not None:
        key = (id(native), "skipped in graph")
        if key not in _WARNED:
            _WARNED.add(key)
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


def record_reduced(native: _native.Tracer, module_id: int, layout: str, sizes: Sequence[int], stats: Any) -> None:
    """Records one module call from the stats op's arguments (at the next drain)."""
    try:
        call = native.begin_call(module_id)
        if call < 0:
            return
        # A copy (a few numbers, on the device, no wait): the compiled graph
        # owns `stats` and may reuse its memory once the op has returned.
        defer(native, module_id, call, layout, list(sizes), stats.clone())
    except Exception as exc:  # a hook must never break the forward pass
        warn_once(native, "recording", exc)


#: Module calls whose reduced parts wait for the next drain, per tracer:
#: ``id(native) -> (native, [(module_id, call, layout, sizes, parts)])``.
_QUEUED: dict[int, Tuple[_native.Tracer, List[Queued]]] = {}
_QUEUE_LOCK = threading.Lock()

def _after_fork_in_child() -> None:
    # Another thread may have held the lock at the fork; and the parent's
    # queued calls are the parent's to record (as its buffered lines are).
    global _QUEUE_LOCK
    _QUEUE_LOCK = threading.Lock()
    _QUEUED.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

#: A queue this long is drained at once (a host wait), so that a loop that
#: never changes step does not hold parts without end.
MAX_QUEUED = 4096


def defer(native: _native.Tracer, module_id: int, call: int, layout: str, sizes: List[int], parts: Any) -> None:
    """Queues one module call's reduced ``parts`` (a 1-D tensor, any device)."""
    with _QUEUE_LOCK:
        entry = _QUEUED.get(id(native))
        if entry is None:
            entry = _QUEUED[id(native)] = (native, [])
        entry[1].append((module_id, call, layout, sizes, parts))
        full = len(entry[1]) >= MAX_QUEUED
    if full:
        drain(native)


def queued(native: _native.Tracer) -> int:
    """How many module calls of ``native`` wait for the next drain."""
    entry = _QUEUED.get(id(native))
    return 0 if entry is None else len(entry[1])


def drain(native: _native.Tracer) -> None:
    """Hands the queued calls of ``native`` to Rust: per device, one
    concatenation and one copy to the host. Never raises (logs once)."""
    with _QUEUE_LOCK:
        entry = _QUEUED.pop(id(native), None)
    if not entry or not entry[1]:
        return
    try:
        by_device: dict[Any, List[Queued]] = {}
        for item in entry[1]:
            by_device.setdefault(item[4].device, []).append(item)
        for device, items in by_device.items():
            host = _to_host(torch.cat([item[4].reshape(-1) for item in items]))
            address, offset = host.data_ptr(), 0
            for module_id, call, layout, sizes, parts in items:
                n = parts.numel()
                native.record_reduced(module_id, call, layout, sizes, address + 8 * offset, n)
                offset += n
    except Exception as exc:  # runs in set_step/flush/exit: never raise there
        warn_once(native, "recording", exc)


def _to_host(flat: Any) -> Any:
    """``flat`` as a contiguous float64 CPU tensor: the step's one transfer."""
    if flat.dtype is not _FLOAT64:
        flat = flat.to(_FLOAT64)
    if flat.is_cpu:
        return flat.contiguous()
    if flat.device.type == "cuda":
        host = torch.empty(flat.shape, dtype=_FLOAT64, pin_memory=True)
        host.copy_(flat, non_blocking=True)
        done = torch.cuda.Event()
        done.record(torch.cuda.current_stream(flat.device))
        done.synchronize()
        return host
    return flat.cpu()


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
            stacked = torch.cat(reduced)
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
    n = x.numel()
    zero = torch.zeros((), dtype=_FLOAT64, device=x.device)
    if n == 0:
        return torch.stack([zero for _ in parts])
    first = x[(0,) * x.dim()].float().double()
    exact = x.dtype in _EXACT_IN_FLOAT32
    dim = max(range(x.dim()), key=lambda i: x.shape[i]) if x.dim() else None
    if dim is None:
        pieces = [x]
    else:
        per_index = n // x.shape[dim]
        pieces = x.split(max(1, PIECE // max(1, per_index)), dim=dim)
    want = set(parts)
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
        x, failure = None, _error_text(exc)
    for stat in native.stats:
        if x is None:
            values.append(failure)
            continue
        try:
            values.append(_one_stat(x, stat))
        except Exception as exc:
            values.append(_error_text(exc))
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
