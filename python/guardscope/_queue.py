"""The per-step queue of values reduced on a device, and the layout of a
queued module call.

Values reduced on a device (by a compiled graph, ``_in_graph``, or by the
eager route off the CPU, ``_stats``) stay there in this queue: no value is
read per module call (no host sync there). The queue (``defer``/``drain``)
is emptied when the step changes, on ``flush()``/``close()``, at exit, and
when it holds ``MAX_QUEUED`` calls: all its parts are concatenated per
device and copied to the host at once (into pinned memory, non-blocking,
then one wait on CUDA), and Rust records them. So a device pays one
transfer and one wait per step, not per module.
"""

from __future__ import annotations

import os
import threading
from typing import Any, List, Sequence, Tuple

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)
from guardscope import _native
from guardscope._tracers import warn_once

#: One queued module call: ``(module_id, call, layout, sizes, parts)``.
Queued = Tuple[int, int, str, List[int], Any]

_FLOAT64 = torch.float64

#: Separates the fields of one tensor in the stats op's layout string.
FIELD_SEP = "\x1e"

#: Separates the tensors of a layout string (``_op.SEP``).
SEP = "\x1f"


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
