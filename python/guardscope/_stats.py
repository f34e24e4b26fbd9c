"""Statistics of module output tensors, handed to the Rust tracer.

Three routes, one record per tensor either way:

- CPU strided tensors: ``detach().float()`` (no copy for float32), made
  contiguous, and its buffer read once by Rust, which computes every stat in
  one pass with float64 sums. No torch reduction, no ``.item()``.
- Other devices: the stats of every tensor of the module call are computed
  with torch on the device (sums in float64), stacked, and moved to the host
  with ONE ``.tolist()`` per module call.
- If a route fails (sparse, quantized, meta tensors...), each stat is
  computed on its own; a stat that fails is recorded as ``"<error: ...>"``.

Nothing here raises into the model's forward: ``record_call`` logs the first
failure of a trace and carries on.
"""

import logging
import math

import torch

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
    key = (id(native), what)
    if key not in _WARNED:
        _WARNED.add(key)
        logger.warning("guardscope activation trace: %s failed (%s); the model is unaffected", what, _error_text(exc))


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


def _record_tensors(native, module_id, call, names, tensors):
    # Records are written in output order. Tensors off the CPU are summarized
    # first, together, so that they cost one device-to-host copy.
    try:
        all_cpu = all(t.is_cpu and t.layout is _STRIDED for t in tensors)
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
            items.append((name, t, tuple(t.shape), _dtype_name(t.dtype), t.is_cpu and t.layout is _STRIDED))
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
        x = t.detach().float()
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
