"""What happens to buffered activation records and step records when a
process ends or forks.

- Normal interpreter exit: every live trace and StepLogger is flushed (``atexit``).
- ``kill -9`` (or ``os._exit``, a segfault): the records of finished steps
  are already on disk, since ``set_step`` flushes; the current step is lost.
  A StepLogger loses the current step and at most the last 63 steps
  without compiles (their records wait in memory, see ``_steps.WAIT_RECORDS``).
- ``fork()`` (DataLoader workers): the child inherits the traces, but the
  Rust side makes them inert there (no record, no flush, no lock taken), so
  the parent's buffered records are never written twice and a lock held by
  another parent thread at fork time cannot hang the child. A child records
  only through traces it opens itself. A StepLogger's waiting records are
  dropped in the child (``_steps._after_fork_in_child``).
- multiprocessing children end with ``os._exit``, which skips ``atexit``;
  their finalizers still run, so a trace or StepLogger opened in one
  registers one.

Nothing here raises: a failing file is reported once by the Rust binding.
"""

from __future__ import annotations

import atexit
import logging
import os
import sys

logger = logging.getLogger("guardscope")

_finalizer_pid: int | None = None


def flush_all() -> None:
    """Flushes every live trace and StepLogger of this process (inherited
    traces are no-ops, inherited step records were dropped)."""
    _steps = sys.modules.get("guardscope._steps")
    if _steps is not None:
        _steps.flush_all()  # never raises: a failing file warns once
    # Only what a trace has imported: nothing to flush, or to import, otherwise.
    _tracers = sys.modules.get("guardscope._tracers")
    _queue = sys.modules.get("guardscope._queue")
    for native in list(_tracers.TRACERS.values()) if _tracers else []:
        try:
            if _queue is not None:
                _queue.drain(native)
            native.flush()
        except Exception as exc:  # never let exit or a fork hook raise
            logger.warning("activation trace: flush failed (%s: %s)", type(exc).__name__, exc)


def trace_opened() -> None:
    """Called for every new trace and StepLogger: makes sure this process
    flushes at its end."""
    global _finalizer_pid
    if _finalizer_pid == os.getpid():
        return
    mp = sys.modules.get("multiprocessing")
    if mp is not None and mp.parent_process() is not None:
        from multiprocessing import util

        util.Finalize(None, flush_all, exitpriority=0)
    _finalizer_pid = os.getpid()


atexit.register(flush_all)
