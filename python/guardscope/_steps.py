"""Per-step compile logging for training loops: ``StepLogger``."""

from __future__ import annotations

import json
import logging
import os
import weakref
from threading import get_ident
from time import perf_counter_ns, time_ns
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence, Tuple, Union

from guardscope import _compile_log, _process
from guardscope._paths import current_rank, distributed_initialized, substitute, substitute_pid
from guardscope._locked_file import open_exclusive, release
from guardscope._step_records import Snapshot, dynamo_counters, quiet_lines, quiet_record, recompiled_line, record_head, step_record
from guardscope._types import CompileEvent, StepRecord

if TYPE_CHECKING:
    from guardscope._hooks import ActivationTrace

logger = logging.getLogger("guardscope")


#: The record of a step in which nothing compiled waits in memory until
#: WAIT_RECORDS records wait or WAIT_NS have passed since the last write,
#: checked when a step ends: it reaches the OS at the end of its own step or
#: of one of the next WAIT_RECORDS - 1 steps. A write costs a small model's
#: step more than the rest of the logger's work (write(2) and fstat(2) about
#: 20-50 us each after the step has evicted the caches, on a shared 2-core
#: VM): 64 records share one.
WAIT_RECORDS = 64
WAIT_NS = 1_000_000_000

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

#: The open loggers of this process: what waits in them is written at exit
#: (``_process.flush_all``) and dropped in a forked child (the parent writes it).
_LIVE: weakref.WeakSet[StepLogger] = weakref.WeakSet()


def flush_all() -> None:
    """Writes what waits in every open StepLogger of this process."""
    for log in list(_LIVE):
        log.flush()


def _flush_path(path: str) -> None:
    """Writes what waits in this process's loggers on ``path`` (one never closed: a train() that raised)."""
    for log in list(_LIVE):
        if log.path == path:
            log.flush()


def _after_fork_in_child() -> None:
    # The child's records are its own: its pid, not the parent's.
    pid = os.getpid()
    for log in list(_LIVE):
        log._pending.clear()
        log._set_pid(pid)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

#: A step without compiles: ``(step, start ns, wall ns)``, its record not yet a dict.
_Quiet = Tuple[int, int, int]


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
    microseconds. A step that compiled (or moved a Dynamo counter) is
    written at its end; the record of a step without compiles waits in
    memory until 64 records wait or a second has passed since the last
    write, checked at each step's end, so it reaches the OS at the end of
    its step or of one of the next 63 (``flush()``, ``close()``, a later
    step that compiles and the interpreter's exit write it sooner): a kill
    loses at most the step in progress and 63 steps without compiles.
    Nothing here raises into the training loop: a failing file logs one
    warning and logging stops; a file deleted while the run goes on is
    created again (one warning).

    A step's compiles are those of the thread that began it (another
    thread's compiles are its own business); ``all_threads=True`` counts
    every thread's. Dynamo's counters in a record are the process's.

    ``<rank>`` in the path is resolved when the first record is written if
    no rank is known yet (under ``torch.multiprocessing.spawn`` the process
    group is made after the logger): every rank gets its own file. Two
    processes never truncate one file: the second writes beside it, with
    its pid in the name, and says so.

    Each record names its process (``pid``, a forked child's own) and the
    logger's ``session`` (``"<pid>-<microseconds>"`` of when it was made):
    ``append=True`` keeps the file's earlier records (a resumed or retried
    run; the framework callbacks always append), and readers tell each
    attempt apart by its session.
    """

    def __init__(
        self,
        path: Union[str, os.PathLike[str]],
        *,
        warn: bool = True,
        trace: Union[ActivationTrace, Sequence[ActivationTrace], None] = None,
        all_threads: bool = False,
        append: bool = False,
    ) -> None:
        # First: __del__ reads it, even of a logger whose construction failed.
        self._pending: list[_Quiet] = []
        self._rank = current_rank()
        self._pid = os.getpid()
        self._append = append
        self.session = f"{self._pid}-{time_ns() // 1000}"
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
            _flush_path(self.path)
            self._file, self.path = open_exclusive(self.path, self._pid, append)
        self.warn = warn
        self.all_threads = all_threads
        self._traces: list[ActivationTrace] = (
            [] if trace is None else list(trace) if isinstance(trace, (list, tuple)) else [trace]  # type: ignore[list-item]
        )
        # Checked at each write while no rank is known: torch.distributed may
        # be initialised after the logger was made. Found once, so that a
        # write pays for a call, not for importing and looking it up.
        self._dist_initialized = distributed_initialized()
        self._head = record_head(self._rank, self._pid, self.session)
        self._counters = dynamo_counters()
        self._log = _compile_log.SHARED.acquire()
        handler = _compile_log.SHARED.handler
        assert handler is not None  # acquired
        self._log_handler = handler
        self._trace_log = _compile_log.SHARED.trace_log
        # Dynamo's four counters (Snapshot) and the log's lines, read together
        # (none yet: no count is negative, so the first begin reads them).
        self._snap: Tuple[int, int, int, int, int] = (-1, -1, -1, -1, -1)
        # The open step: (step, start ns, _snap at its start, thread, perf ns).
        self._open: Optional[Tuple[int, int, Tuple[int, int, int, int, int], int, int]] = None
        # When what waits is written at the latest (perf_counter_ns).
        self._write_by = perf_counter_ns() + WAIT_NS
        self._last: Union[StepRecord, _Quiet, None] = None
        self._closed = False
        self._failed = False
        self._recreated = False
        #: records made so far (those of the last steps without compiles may
        #: still wait in memory: ``flush()``; counted even if the file then failed)
        self.records = 0
        _LIVE.add(self)
        _process.trace_opened()  # multiprocessing children write what waits at their exit

    # -- the loop's API -------------------------------------------------

    def begin(self, step: int) -> None:
        """Starts step ``step`` (ending the previous one if it is still open)."""
        if self._open is not None:
            self._end()
        if self._closed:
            return
        try:
            if self._traces:
                for trace in self._traces:
                    trace.set_step(step)
            if _STEP_LISTENERS:
                for listener in list(_STEP_LISTENERS):
                    listener(step)
            # The counters as last read whole stand for now while neither
            # frames_total nor the log moved since: the other three move
            # only while Dynamo converts a frame, which adds to frames_total
            # first, or while it logs (export). Two reads a step, not five:
            # each costs a microsecond or more after the user's step.
            lines = self._log_handler.lines
            snap = self._snap
            if snap[4] != lines or snap[0] != self._counters["frames"]["total"]:
                snap = self._snap = self._snapshot(lines)
            self._open = (step, time_ns(), snap, get_ident(), perf_counter_ns())
        except Exception as exc:
            self._fail("start a step", exc)

    def end(self) -> Optional[StepRecord]:
        """Ends the open step and returns its record (None if no step is open).
        The record of a step without compiles may wait in memory a few steps
        before it is written (``flush()``)."""
        if self._end() is None:
            return None
        return self.last

    @property
    def last(self) -> Optional[StepRecord]:
        """The last record made, as a dict."""
        last = self._last
        if isinstance(last, tuple):
            last = self._last = quiet_record(*last, self._rank, self._pid, self.session)
        return last

    def flush(self) -> None:
        """Writes the records that wait in memory now (steps without
        compiles wait a few steps, see the class); never raises."""
        if self._pending and not self._failed:
            try:
                self._write_pending()
            except Exception as exc:
                self._fail("write step records", exc)

    def step(self, step: int) -> _Step:
        """Context manager around one step: ``with log.step(n): ...``."""
        return _Step(self, step)

    def close(self) -> None:
        """Ends an open step, writes what waits and closes the file."""
        if self._closed:
            return
        self._end()
        self._closed = True
        self.flush()
        _LIVE.discard(self)
        try:
            if self._file is not None:
                release(self._file)
                self._file.close()
        except Exception as exc:
            self._fail("close", exc)
        _compile_log.SHARED.release()

    def __enter__(self) -> StepLogger:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False

    def __del__(self) -> None:
        # A logger dropped without close(): its file closes with it, after
        # what waits has been written.
        if getattr(self, "_pending", None):
            try:
                self.flush()
            except Exception:
                pass

    def __repr__(self) -> str:
        return f"StepLogger({self.path!r}, records={self.records})"

    # -- internals ------------------------------------------------------

    def _end(self) -> Union[StepRecord, _Quiet, None]:
        """Ends the open step: None when no record is made; a step in which
        nothing compiled and no Dynamo counter moved gives a ``_Quiet`` tuple,
        its record waiting to be written; any other step its record, written
        now (after those that wait)."""
        opened, self._open = self._open, None
        if opened is None or self._failed:
            return None
        now = perf_counter_ns()
        step, start_ns, snap, thread, t0 = opened
        record: StepRecord
        try:
            # Neither the log nor frames_total moved: nothing did (see begin).
            if self._log_handler.lines == snap[4] and self._counters["frames"]["total"] == snap[0] and type(step) is int:
                # Most steps: a tuple, formatted when written.
                quiet = (step, start_ns, now - t0)
                pending = self._pending
                pending.append(quiet)
                self.records += 1
                self._last = quiet
                if len(pending) >= WAIT_RECORDS or now >= self._write_by:
                    self._write_pending(now)
                return quiet
            if self._rank is None:
                # A process group made since the last write: the waiting
                # records are written as their dicts say, without a rank.
                self._write_pending(now)
            self._snap = after = self._snapshot(self._log_handler.lines)
            record = step_record(
                step, start_ns, now - t0, snap[:4], after[:4], self._events(snap[4], after[4], thread), self._rank, self._pid, self.session
            )
            self._write_pending(now, json.dumps(record) + "\n")
        except Exception as exc:
            self._fail("write a step record", exc)
            return None
        self.records += 1
        self._last = record
        if self.warn and record["recompiles"]:
            self._warn(record)
        return record

    def _write_pending(self, now: int = 0, line: str = "") -> None:
        """Writes the records that wait, then ``line``, in one write(2)."""
        pending = self._pending
        if pending:
            text = quiet_lines(pending, self._head)
            pending.clear()  # dropped, not retried, if the write fails: logging stops then
            line = text + line
        if line:
            self._write(line.encode("ascii"))
        self._write_by = (now or perf_counter_ns()) + WAIT_NS
        if self._rank is None:
            self._find_rank()  # for the records after these
        # The compile handler put back if something removed it from torch's
        # trace logger (torch's set_logs leaves it, in every torch supported):
        # looked at with each write, not each step.
        if self._log_handler not in self._trace_log.handlers:  # type: ignore[union-attr]
            _compile_log.SHARED.ensure_attached()

    def _snapshot(self, lines: int) -> Tuple[int, int, int, int, int]:
        """Dynamo's four counters, read whole, and the log's ``lines``."""
        counters = self._counters
        frames = counters["frames"]
        return (
            frames["total"],
            frames["ok"],
            counters["stats"]["unique_graphs"],
            sum(counters["graph_break"].values()),
            lines,
        )

    def _find_rank(self) -> None:
        """Takes torch.distributed's rank once a process group exists (looked
        for at each write while no rank is known, not at every step: the
        call costs several microseconds after a step)."""
        if self._dist_initialized is not None and self._dist_initialized():
            self._set_rank(current_rank())

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

    def _set_rank(self, rank: Optional[int]) -> None:
        # A waiting step's dict is made first, so that it says what its line says.
        if isinstance(self._last, tuple):
            self._last = quiet_record(*self._last, self._rank, self._pid, self.session)
        self._rank = rank
        self._head = record_head(self._rank, self._pid, self.session)

    def _set_pid(self, pid: int) -> None:
        """A forked child's records carry its own pid (what waits was the
        parent's and is dropped)."""
        if isinstance(self._last, tuple):
            self._last = None
        self._pid = pid
        self._head = record_head(self._rank, self._pid, self.session)

    def _open_deferred(self) -> None:
        """Resolves ``<rank>`` at the first record and opens the file."""
        rank = current_rank()
        if rank is not None and self._rank is None:
            self._set_rank(rank)
        resolved = substitute(self.path)
        self._deferred = False
        _flush_path(resolved)
        self.path = resolved
        self._file, self.path = open_exclusive(resolved, self._pid, self._append)
        if rank is None:
            logger.info("StepLogger: no rank known (no process group, no $RANK) for '<rank>'; writing %s", self.path)

    def _recreate(self) -> None:
        """The file was deleted while the run goes on (a cleanup job, a
        user): created again at the same path, said once."""
        assert self._file is not None
        self._file.close()
        self._file = open(self.path, "ab", buffering=0)
        if not self._recreated:
            self._recreated = True
            logger.warning("StepLogger: %s was deleted during the run; created it again (earlier records are lost)", self.path)

    def _events(self, mark: int, upto: int, thread: int) -> list[CompileEvent]:
        """The compile events the log took between ``mark`` and ``upto``,
        this thread's unless ``all_threads``, without their log lines."""
        compiles = [] if upto == mark else _compile_log.events_between(self._log, mark, upto)
        if compiles and not self.all_threads:
            compiles = _compile_log.on_thread(self._log_handler, compiles, thread)
        for event in compiles:
            _compile_log.drop_lines(event)
        return compiles

    def _warn(self, record: StepRecord) -> None:
        # No "guardscope:" in the message: the logger's name says it (and,
        # with no logging configured, _warnings' last resort), and a format
        # showing %(name)s would print it twice.
        logger.warning("step %s recompiled: %s", record["step"], recompiled_line(record["compiles"]))

    def _fail(self, what: str, exc: BaseException) -> None:
        if not self._failed:
            self._failed = True
            self._pending.clear()
            logger.warning(
                "StepLogger could not %s on %s (%s: %s); step logging is off for the rest of the run",
                what,
                self.path,
                type(exc).__name__,
                exc,
            )
