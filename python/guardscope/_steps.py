"""Per-step compile logging for training loops: ``StepLogger``."""

from __future__ import annotations

import json
import logging
import os
import stat
import threading
from time import perf_counter_ns, time_ns
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence, Tuple, Union

from guardscope import _compile_log
from guardscope._paths import current_rank, distributed_initialized, substitute, substitute_pid
from guardscope._types import CompileEvent, StepCounters, StepRecord

if TYPE_CHECKING:
    from guardscope._hooks import ActivationTrace

#: Dynamo's counters at one moment: frames total and ok, unique graphs, graph breaks.
Snapshot = Tuple[int, int, int, int]

logger = logging.getLogger("guardscope")


def _counters() -> Any:
    import guardscope._torch_range  # noqa: F401  (the supported-torch check, first)
    from torch._dynamo.utils import counters

    return counters


def counter_snapshot(counters: Any) -> Snapshot:
    """The Dynamo counters a step record reports, as plain ints."""
    return (
        counters["frames"]["total"],
        counters["frames"]["ok"],
        counters["stats"]["unique_graphs"],
        sum(counters["graph_break"].values()),
    )


_COUNTER_NAMES = ("frames_total", "frames_ok", "unique_graphs", "graph_breaks")


def describe(event: CompileEvent) -> str:
    """One line for a compile event: compile id, frame, seconds and cause."""
    where = event.get("function") or "?"
    file = event.get("file")
    if file:
        where += f" ({os.path.basename(file)}:{event.get('line')})"
    seconds = event.get("seconds")
    text = f"{event['compile_id']} {where}"
    if seconds is not None:
        text += f" took {seconds:.2f} s"
    if event.get("failed"):
        text += f", failed ({event.get('fail_type') or 'unknown'})"
    cause = event.get("cause")
    if cause:
        text += f": {cause['label']}: {cause['culprit']}"
        source, called_from = cause.get("source"), cause.get("called_from")
        if source:
            text += f" at {display_site(source)}"
        if called_from and called_from != source:
            text += f" (called from {display_site(called_from)})"
        # Judged from the log so far, as `summary` judges it.
        evidence = cause.get("evidence")
        if cause.get("severity") and evidence:
            text += f" [{cause['severity']}: {evidence['kind'].replace('_', ' ')}]"
    return text


def display_site(site: str) -> str:
    """``file:line`` as guardscope's text shows it: the user's files relative
    to the current directory when under it (else whole), installed packages
    from the package on. Events keep the full path."""
    path, sep, line = site.rpartition(":")
    if not sep or not line.isdigit():
        path, line = site, ""
    unix = path.replace("\\", "/")
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in unix:
            path = unix.rsplit(marker, 1)[1]
            break
    else:
        try:
            rel = os.path.relpath(path)
            if os.path.isabs(path) and not rel.startswith(".."):
                path = rel
        except ValueError:  # another drive on Windows
            pass
    return f"{path}:{line}" if line else path


class _Step:
    # A plain class, not contextlib.contextmanager: this runs every step.
    __slots__ = ("log", "number")

    def __init__(self, log: StepLogger, number: int) -> None:
        self.log = log
        self.number = number

    def __enter__(self) -> StepLogger:
        self.log.begin(self.number)
        return self.log

    def __exit__(self, *exc: object) -> Literal[False]:
        self.log.end()
        return False


# no_recompiles() guards learn step boundaries from every StepLogger.
_STEP_LISTENERS: list[Callable[[int], None]] = []


class StepLogger:
    """Writes one JSON line per training step: its start, wall time, the
    compiles that happened inside it (with classified recompile reasons),
    graph breaks and Dynamo counter deltas.

    ::

        log = guardscope.StepLogger("steps_<rank>.jsonl")
        for step, batch in enumerate(loader):
            with log.step(step):
                train_step(batch)

    ``begin(step)`` / ``end()`` do the same for loops that cannot use
    ``with``. ``trace=`` takes an ``ActivationTrace`` (or a list of them)
    whose step follows the logger's. When a step recompiles, one warning
    line goes to the ``guardscope`` logger (``warn=False`` turns it off).

    Compiles are captured in-process from torch's structured trace logger
    (no TORCH_TRACE needed, correct under ``fullgraph=True``); create the
    logger before the first compiled call so that shape guard failures can
    name their source line. A step without compiles costs a few
    microseconds. Records are flushed at the end of every step, so a crash
    loses at most the step in progress. Nothing here raises into the
    training loop: a failing file logs one warning and logging stops; a
    file deleted while the run goes on is created again (one warning).

    A step's compiles are those of the thread that began it (another
    thread's compiles are its own business); ``all_threads=True`` counts
    every thread's. Dynamo's counters in a record are the process's.

    ``<rank>`` in the path is resolved when the first record is written if
    no rank is known yet (under ``torch.multiprocessing.spawn`` the process
    group is made after the logger): every rank gets its own file. Two
    processes never truncate one file: the second writes beside it, with
    its pid in the name, and says so.
    """

    def __init__(
        self,
        path: Union[str, os.PathLike[str]],
        *,
        warn: bool = True,
        trace: Union[ActivationTrace, Sequence[ActivationTrace], None] = None,
        all_threads: bool = False,
    ) -> None:
        self._rank = current_rank()
        self._pid = os.getpid()
        template = substitute_pid(path)
        # No rank yet: the file is opened with the first record, by then the
        # process group exists (else this is the only process).
        self._deferred = "<rank>" in template and self._rank is None
        self.path = template if self._deferred else substitute(template)
        parent = os.path.dirname(self.path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        # Fail now, at construction, when the path cannot be written.
        self._file: Optional[Any] = None
        if self._deferred:
            if not os.access(parent or ".", os.W_OK):
                raise PermissionError(f"cannot write into {parent or os.getcwd()!r} (StepLogger {self.path!r})")
        else:
            self._file = self._open_exclusive(self.path)
        self.warn = warn
        self.all_threads = all_threads
        self._traces: list[ActivationTrace] = (
            [] if trace is None else list(trace) if isinstance(trace, (list, tuple)) else [trace]  # type: ignore[list-item]
        )
        # Checked every step while no rank is known: torch.distributed may be
        # initialised after the logger was made. Found once, so that a step
        # pays for a call, not for importing and looking it up.
        self._dist_initialized = distributed_initialized()
        self._head = self._record_head()
        self._counters = _counters()
        self._log = _compile_log.SHARED.acquire()
        self._log_handler = _compile_log.SHARED.handler
        self._open: Optional[Tuple[int, int, Snapshot, int, int, int]] = None
        self._closed = False
        self._failed = False
        self._recreated = False
        #: records written so far
        self.records = 0
        #: the last record written, as a dict
        self.last: Optional[StepRecord] = None

    # -- the loop's API -------------------------------------------------

    def begin(self, step: int) -> None:
        """Starts step ``step`` (ending the previous one if it is still open)."""
        if self._open is not None:
            self.end()
        if self._closed:
            return
        try:
            _compile_log.SHARED.ensure_attached()
            for trace in self._traces:
                trace.set_step(step)
            for listener in list(_STEP_LISTENERS):
                listener(step)
            thread = threading.get_ident()
            self._open = (step, time_ns(), counter_snapshot(self._counters), self._log.lines, thread, perf_counter_ns())
        except Exception as exc:
            self._fail("start a step", exc)

    def end(self) -> Optional[StepRecord]:
        """Ends the open step and writes its record (nothing if none is open)."""
        opened, self._open = self._open, None
        if opened is None or self._failed:
            return None
        step, start_ns, before, mark, thread, t0 = opened
        # Integers to the last digit kept, divided once: the exact float of
        # that decimal, as round() would give, at a fraction of its cost.
        wall_ms = ((perf_counter_ns() - t0) + 500) // 1000 / 1000
        start = (start_ns + 500) // 1000 / 1_000_000
        record: StepRecord
        try:
            after = counter_snapshot(self._counters)
            upto = self._log.lines
            if self._rank is None and self._dist_initialized is not None and self._dist_initialized():
                self._rank = current_rank()
                self._head = self._record_head()
            compiles = [] if upto == mark else _compile_log.events_between(self._log, mark, upto)
            if compiles and not self.all_threads:
                compiles = _compile_log.on_thread(self._log_handler, compiles, thread)
            if not compiles and type(step) is int:
                record, line = self._quiet_record(step, start, wall_ms, before, after)
            else:
                record = self._record(step, start, wall_ms, before, after, compiles)
                line = json.dumps(record) + "\n"
            self._write(line.encode("ascii"))
        except Exception as exc:
            self._fail("write a step record", exc)
            return None
        self.records += 1
        self.last = record
        if self.warn and record["recompiles"]:
            self._warn(record)
        return record

    def step(self, step: int) -> _Step:
        """Context manager around one step: ``with log.step(n): ...``."""
        return _Step(self, step)

    def close(self) -> None:
        """Ends an open step, flushes and closes the file."""
        if self._closed:
            return
        self.end()
        self._closed = True
        try:
            if self._file is not None:
                self._file.close()
        except Exception as exc:
            self._fail("close", exc)
        _compile_log.SHARED.release()

    def __enter__(self) -> StepLogger:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False

    def __repr__(self) -> str:
        return f"StepLogger({self.path!r}, records={self.records})"

    # -- internals ------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if self._file is None:
            self._open_deferred()
        elif os.fstat(self._file.fileno()).st_nlink == 0:
            self._recreate()
        file = self._file
        assert file is not None
        # A raw file may write less than asked (a signal, a nearly full disk).
        view = memoryview(data)
        while view:
            view = view[file.write(view) :]

    def _open_deferred(self) -> None:
        """Resolves ``<rank>`` at the first record and opens the file."""
        rank = current_rank()
        if rank is not None and self._rank is None:
            self._rank = rank
            self._head = self._record_head()
        resolved = substitute(self.path)
        self._deferred = False
        self.path = resolved
        self._file = self._open_exclusive(resolved)
        if rank is None:
            logger.info("StepLogger: no rank known (no process group, no $RANK) for '<rank>'; writing %s", self.path)

    def _open_exclusive(self, path: str) -> Any:
        """Opens ``path`` for this process alone, emptied. Another process
        writing it (two ranks that resolved one name) keeps it: this one
        writes beside it, its pid in the name."""
        file = _open_locked(path)
        if file is None:
            root, ext = os.path.splitext(path)
            other = f"{root}.pid{self._pid}{ext}"
            logger.warning(
                "StepLogger: %s is being written by another process; this one (pid %s) writes %s instead",
                path,
                self._pid,
                other,
            )
            self.path = other
            file = _open_locked(other) or open(other, "wb", buffering=0)
        return file

    def _recreate(self) -> None:
        """The file was deleted while the run goes on (a cleanup job, a
        user): created again at the same path, said once."""
        assert self._file is not None
        self._file.close()
        self._file = open(self.path, "ab", buffering=0)
        if not self._recreated:
            self._recreated = True
            logger.warning("StepLogger: %s was deleted during the run; created it again (earlier records are lost)", self.path)

    def _record_head(self) -> str:
        """The record's fields after ``wall_ms`` that are the same every step, as JSON."""
        rank = "" if self._rank is None else f'"rank": {json.dumps(self._rank)}, '
        return f'{rank}"pid": {self._pid}, "compile_s": 0, "recompiles": 0, '

    def _quiet_record(
        self, step: int, start: float, wall_ms: float, before: Snapshot, after: Snapshot
    ) -> Tuple[StepRecord, str]:
        """The record of a step without compiles and its line, which is
        ``json.dumps(record)`` (a test checks it) without the encoder's cost:
        most steps take this route, and it runs between the user's steps."""
        a0, a1, a2, a3 = after
        b0, b1, b2, b3 = before
        frames_total, frames_ok, graphs, breaks = a0 - b0, a1 - b1, a2 - b2, a3 - b3
        counters: StepCounters = {"frames_total": frames_total, "frames_ok": frames_ok, "unique_graphs": graphs, "graph_breaks": breaks}
        # Built key by key: the keys' order is the line's, rank in its place.
        record: StepRecord = {"step": step, "start": start, "wall_ms": wall_ms}  # type: ignore[typeddict-item]
        if self._rank is not None:
            record["rank"] = self._rank
        record["pid"] = self._pid
        record["compile_s"] = 0
        record["recompiles"] = 0
        record["graph_breaks"] = breaks
        record["counters"] = counters
        record["compiles"] = []
        line = (
            f'{{"step": {step}, "start": {start!r}, "wall_ms": {wall_ms!r}, {self._head}"graph_breaks": {breaks}, '
            f'"counters": {{"frames_total": {frames_total}, "frames_ok": {frames_ok}, "unique_graphs": {graphs}, '
            f'"graph_breaks": {breaks}}}, "compiles": []}}\n'
        )
        return record, line

    def _record(
        self, step: int, start: float, wall_ms: float, before: Snapshot, after: Snapshot, compiles: list[CompileEvent]
    ) -> StepRecord:
        for event in compiles:
            _compile_log.drop_lines(event)
        record: StepRecord = {  # type: ignore[typeddict-item]
            "step": step,
            "start": start,
            "wall_ms": wall_ms,
        }
        if self._rank is not None:
            record["rank"] = self._rank
        record["pid"] = self._pid
        compile_s = sum((e.get("seconds") or 0.0) + (e.get("backward_seconds") or 0.0) for e in compiles)
        record["compile_s"] = round(compile_s, 6)
        record["recompiles"] = sum(1 for e in compiles if e.get("recompile"))
        record["graph_breaks"] = after[3] - before[3]
        record["counters"] = {  # type: ignore[typeddict-item]
            name: a - b for name, a, b in zip(_COUNTER_NAMES, after, before)
        }
        record["compiles"] = compiles
        return record

    def _warn(self, record: StepRecord) -> None:
        # No "guardscope:" in the message: the logger's name says it (and,
        # with no logging configured, _warnings' last resort), and a format
        # showing %(name)s would print it twice.
        recompiles = [describe(e) for e in record["compiles"] if e.get("recompile")]
        logger.warning("step %s recompiled: %s", record["step"], "; ".join(recompiles))

    def _fail(self, what: str, exc: BaseException) -> None:
        if not self._failed:
            self._failed = True
            logger.warning(
                "StepLogger could not %s on %s (%s: %s); step logging is off for the rest of the run",
                what,
                self.path,
                type(exc).__name__,
                exc,
            )


def _open_locked(path: str) -> Any:
    """``path`` opened unbuffered (each record is one write(2), the per-step
    flush) and emptied, under an exclusive lock; None if another process
    holds the lock. Opened for appending first, so that a file another
    process writes is never truncated."""
    file = open(path, "ab", buffering=0)
    # A device (/dev/null, /dev/full) is written as it is.
    if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
        return file
    if not _lock(file.fileno()):
        file.close()
        return None
    file.truncate(0)
    return file


def _lock(fd: int) -> bool:
    """An exclusive lock on the open file, held until it is closed; False
    when another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
