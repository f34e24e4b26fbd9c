"""Statistics of module output tensors, handed to the Rust tracer.

Outside a compiled graph (eager hooks, ``mode="disable"``, and outputs a
graph cannot reduce), one record per tensor either way:

- CPU strided tensors: ``detach().float()`` (no copy for float32), made
  contiguous, and its buffer read once by Rust, which computes every stat in
  one pass with float64 sums. No torch reduction, no ``.item()``.
- Other devices: the stats of every tensor of the module call are computed
  with torch on the device (sums in float64), stacked, and moved to the host
  with ONE ``.tolist()`` per module call.
- If a route fails (sparse, quantized, meta tensors...), each stat is
  computed on its own; a stat that fails is recorded as ``"<error: ...>"``.

Inside a compiled graph (``mode="op"`` under ``torch.compile``),
``reduce_in_graph`` puts the reductions into the graph itself, where the
compiler fuses them into the kernels that produce the tensors, and the op
hands the small result to Rust (``record_reduced``): the same parts as the
one-pass kernel (float64 sums, shifted variance sums, float32 min/max), so
the same records.

Nothing here raises into the model's forward: ``record_call`` and
``record_reduced`` log the first failure of a trace and carry on.
"""

import logging
import math

import torch

from guardscope._walk import _assume_constant

try:
    from torch.fx.experimental.symbolic_shapes import statically_known_true
except ImportError:  # older torch: only plain ints are "known"

    def statically_known_true(condition):
        return condition is True


logger = logging.getLogger("guardscope")

_DTYPE_NAMES = {}
_WARNED = set()


def _dtype_name(dtype):
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def _error_text(exc):
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()[0]
    return text if len(text) <= 200 else text[:197] + "..."


def warn_once(native, what, exc):
    """Logs the first failure of each kind per tracer (tracers are alive, and
    their ids unique, while registered; ``forget`` runs when they leave)."""
    key = (id(native), what)
    if key not in _WARNED:
        _WARNED.add(key)
        logger.warning("guardscope activation trace: %s failed (%s); the model is unaffected", what, _error_text(exc))


def forget(native):
    _WARNED.difference_update({key for key in _WARNED if key[0] == id(native)})


def record_call(native, module_id, names, tensors):
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


#: Ends the name of a complex tensor handed to ``record_activations`` as its
#: ``view_as_real`` (the op's body views it as complex again).
COMPLEX_MARK = "\x1d"


@_assume_constant
def _skipped_in_graph(tracer_id, what):
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
                "guardscope activation trace: %s output tensors are not recorded inside compiled graphs "
                "(nothing there can reduce them; eager calls record them); the model and its compile are "
                "unaffected",
                what,
            )
    return 0


def for_graph(found, tracer_id):
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
    kept, whole = [], False
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


def from_graph(names, tensors):
    """Undoes ``for_graph``'s marks in the op's body: complex tensors again."""
    if not any(name.endswith(COMPLEX_MARK) for name in names):
        return names, tensors
    out_names, out_tensors = [], []
    for name, t in zip(names, tensors):
        if name.endswith(COMPLEX_MARK):
            name = name[: -len(COMPLEX_MARK)]
            t = torch.view_as_complex(t if t.stride(-1) == 1 else t.contiguous())
        out_names.append(name)
        out_tensors.append(t)
    return out_names, out_tensors


def reduce_in_graph(found, parts, sep):
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
    values, sizes, layout = [], [], []
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
        shifted = d - d.flatten()[0] if several and "shifted_sum" in parts else None
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


def record_reduced(native, module_id, layout, sizes, stats):
    """Records one module call from the stats op's arguments."""
    try:
        call = native.begin_call(module_id)
        if call < 0:
            return
        host = stats if stats.is_cpu else stats.cpu()  # the one device-to-host copy
        if host.dtype is not _FLOAT64 or not host.is_contiguous():
            host = host.to(_FLOAT64).contiguous()
        native.record_reduced(module_id, call, layout, sizes, host.data_ptr(), host.numel())
    except Exception as exc:  # a hook must never break the forward pass
        warn_once(native, "recording", exc)


def _record_tensors(native, module_id, call, names, tensors):
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


def _record_cpu(native, module_id, name, call, t):
    """The fast route: Rust reads the float32 buffer. False if it failed."""
    try:
        x = t if t.dtype is _FLOAT32 else t.detach().float()
        if not x.is_contiguous():
            x = x.contiguous()
        native.record_f32(module_id, name, call, x.data_ptr(), x.numel(), t.shape, _dtype_name(t.dtype))
        return True
    except Exception:
        return False


def _record_mixed(native, module_id, call, names, tensors):
    items = []
    for name, t in zip(names, tensors):
        try:
            # Complex tensors take the careful route (torch's complex
            # semantics); the others off the CPU the one-transfer route.
            fast = None if t.is_complex() else t.is_cpu and t.layout is _STRIDED
            items.append((name, t, tuple(t.shape), _dtype_name(t.dtype), fast))
        except Exception:
            items.append((name, t, (), "unknown", None))
    on_device = [item for item in items if item[4] is False]
    device_values = _device_values(native.stats, on_device) if on_device else {}
    for name, t, shape, dtype, cpu_strided in items:
        if cpu_strided and _record_cpu(native, module_id, name, call, t):
            continue
        values = device_values.get(id(t))
        if values is not None:
            native.record_values(module_id, name, call, values, shape, dtype)
        else:
            _record_each_stat(native, module_id, name, call, t, shape, dtype)


def _device_parts(x, stats):
    """0-dim float64 tensors, one per stat (None for min/max of an empty tensor)."""
    n = x.numel()
    nan = torch.full((), math.nan, dtype=torch.float64, device=x.device)
    parts = []
    for stat in stats:
        if stat == "sum":
            parts.append(x.sum(dtype=torch.float64))
        elif stat == "mean":
            parts.append(x.sum(dtype=torch.float64) / n if n else nan)
        elif stat == "abs_mean":
            parts.append(x.abs().sum(dtype=torch.float64) / n if n else nan)
        elif stat == "min":
            parts.append(x.min().double() if n else None)
        elif stat == "max":
            parts.append(x.max().double() if n else None)
        elif stat == "std":
            parts.append(x.double().std() if n > 1 else nan)
    return parts


def _device_values(stats, items):
    """``{id(tensor): values}`` for tensors not on the CPU (empty if that fails)."""
    try:
        per_tensor = [_device_parts(t.detach().float(), stats) for _, t, _, _, _ in items]
        flat = [p for parts in per_tensor for p in parts if p is not None]
        host = iter(torch.stack(flat).tolist() if flat else [])  # the one device-to-host copy
        return {
            id(t): [None if p is None else next(host) for p in parts]
            for (_, t, _, _, _), parts in zip(items, per_tensor)
        }
    except Exception:
        return {}


def _record_each_stat(native, module_id, name, call, t, shape, dtype):
    """The careful route: every stat on its own, a failure recorded in its place."""
    values = []
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


def _one_stat(x, stat):
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


def _one_complex_stat(x, stat):
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
