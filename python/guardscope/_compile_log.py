"""Compile events captured in-process, from torch's structured trace logger.

torch sends every compile event (``dynamo_start``, ``recompile_reasons``,
``compilation_metrics``, ...) to the logger ``torch.__trace`` whether or
not ``TORCH_TRACE`` is set; it only formats and writes them when that
logger has a handler. guardscope adds one handler, which appends each event
in the TORCH_TRACE text format to a Rust ``CompileLog``; compiles are read
back with the same parser, model and classifier as ``guardscope summary``
uses on files. This works under ``fullgraph=True``, where
``counters["frames"]`` stays 0, and needs no trace directory.

The handler only adds itself: a TORCH_TRACE handler, if any, keeps
receiving every event unchanged. Payloads guardscope does not read (graphs,
generated code) are dropped before they are stored; torch still builds
them, as it does for TORCH_TRACE, which adds to compile time (measured in
the README), never to steps without compiles.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
import os
import threading
import time
from typing import Any, Optional, cast

from guardscope import _native
from guardscope._types import CompileEvent

logger = logging.getLogger("guardscope")

_KEEP_ARTIFACTS = frozenset({"recompile_reasons", "dynamo_graph_break_reason"})


def _kept_payload(kind: str, meta: dict[str, Any], payload: Optional[str]) -> Optional[str]:
    """The part of an event's payload guardscope reads, or None."""
    if payload is None:
        return None
    if kind == "artifact":
        body = meta.get("artifact")
        return payload if isinstance(body, dict) and body.get("name") in _KEEP_ARTIFACTS else None
    if kind == "dynamo_graph_break_reason":
        return payload
    if kind == "dynamo_cpp_guards_str":
        # Guards with values are compared between compiles (what changed,
        # which old entry was closest); accessor lines are half the tree.
        return "\n".join(line for line in payload.split("\n") if _native.is_kept_guard_line(line))
    return None


def _glog_prefix(created: float, pid: Optional[int]) -> str:
    seconds = time.strftime("%m%d %H:%M:%S", time.localtime(created))
    return f"V{seconds}.{int((created % 1) * 1e6):06d} {pid} guardscope/_compile_log.py:0]"


def format_event(metadata: object, payload: object, created: float, pid: Optional[int]) -> Optional[str]:
    """One structured trace event as TORCH_TRACE writes it (envelope line,
    then tab-indented payload lines), keeping only what guardscope reads;
    None for events that belong to no compile."""
    if not isinstance(metadata, dict) or not metadata:
        return None
    kind = next(iter(metadata))
    if kind != "str" and metadata.get("frame_id") is None and metadata.get("compiled_autograd_id") is None:
        return None
    kept = _kept_payload(kind, metadata, payload if isinstance(payload, str) else None)
    envelope = {k: v for k, v in metadata.items() if k != "has_payload"}
    if kept is not None:
        envelope["has_payload"] = hashlib.md5(kept.encode("utf-8"), usedforsecurity=False).hexdigest()
    text = f"{_glog_prefix(created, pid)} {json.dumps(envelope, default=repr)}"
    if kept is not None:
        text += "".join(f"\n\t{line}" for line in kept.split("\n"))
    return text


class _Handler(logging.Handler):
    def __init__(self, log: _native.CompileLog) -> None:
        super().__init__(level=logging.DEBUG)
        self.log = log
        self.failed = False
        # Which thread logged which lines: (lines before, thread ident) each
        # time the thread changes. Dynamo compiles on the thread that called
        # the compiled code, so a compile's first line names its thread.
        # logging.Handler.handle holds the handler's lock around emit.
        self.thread_starts: list[int] = []
        self.thread_idents: list[int] = []
        #: ``log.lines`` as of the last event appended, a plain int: a
        #: StepLogger reads it twice a step, after the user's code has
        #: evicted the caches, where the extension's getter costs several
        #: microseconds and an attribute one.
        self.lines = log.lines

    def emit(self, record: logging.LogRecord) -> None:
        # Runs inside torch's compile: an exception here would surface in the
        # user's compile, so report once and keep quiet.
        try:
            text = format_event(getattr(record, "metadata", None), getattr(record, "payload", None), record.created, record.process)
            if text is not None:
                thread = record.thread or 0
                if not self.thread_idents or self.thread_idents[-1] != thread:
                    self.thread_starts.append(self.lines)
                    self.thread_idents.append(thread)
                self.log.append(text)
                self.lines = self.log.lines
        except Exception as exc:
            if not self.failed:
                self.failed = True
                logger.warning("could not record a compile event (%s: %s); compile events may be incomplete", type(exc).__name__, exc)

    def handleError(self, record: logging.LogRecord) -> None:
        pass


class _Shared:
    """The one handler of the process, attached while anything uses it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.handler: Optional[_Handler] = None
        self.log: Optional[_native.CompileLog] = None
        self.trace_log: Optional[logging.Logger] = None

    def acquire(self) -> _native.CompileLog:
        import guardscope._torch_range  # noqa: F401  (the supported-torch check, first)
        import torch._logging._internal as internal

        with self.lock:
            if self.users == 0 or self.log is None:
                self.log = _native.CompileLog(time.localtime().tm_year)
                self._replay_interned_strings(self.log)
                self.handler = _Handler(self.log)
            self.users += 1
            self.ensure_attached(internal.trace_log)
            return self.log

    def release(self) -> None:
        import torch._logging._internal as internal

        with self.lock:
            self.users = max(0, self.users - 1)
            if self.users == 0 and self.handler is not None:
                internal.trace_log.removeHandler(self.handler)
                self.handler = None
                self.log = None

    def ensure_attached(self, trace_log: Optional[logging.Logger] = None) -> None:
        """Re-adds the handler if ``torch._logging.set_logs`` (which clears
        the trace logger's handlers) removed it."""
        handler = self.handler
        if handler is None:
            return
        if trace_log is None:
            trace_log = self.trace_log
        else:
            self.trace_log = trace_log
        if trace_log is not None and handler not in trace_log.handlers:
            trace_log.addHandler(handler)
            # torch's own rule ("trace_log never propagates"), set only once
            # torch configures its logs: else, with a handler there, every
            # event also reaches the root logger (pytest shows hundreds of
            # DEBUG lines under a failing test).
            trace_log.propagate = False

    def _replay_interned_strings(self, log: _native.CompileLog) -> None:
        # Stack frames name files by index into a table torch logs once per
        # string; strings interned before we attached must be replayed.
        try:
            from torch._logging.structured import INTERN_TABLE
        except ImportError:
            return
        now, pid = time.time(), os.getpid()
        for string, index in list(INTERN_TABLE.items()):
            text = format_event({"str": [string, index]}, None, now, pid)
            if text is not None:
                log.append(text)


SHARED = _Shared()


def on_thread(handler: Optional[_Handler], events: list[CompileEvent], thread: int) -> list[CompileEvent]:
    """The events (still carrying ``first_line``) whose compile ran on
    ``thread``, by the thread record of ``handler`` (the one whose log they
    come from, kept by the caller: it outlives its release): per-thread
    counting, so that one thread's steps and ``no_recompiles()`` never own
    another thread's compiles."""
    if handler is None:
        return events
    starts, idents = handler.thread_starts, handler.thread_idents
    kept = []
    for event in events:
        at = bisect.bisect_left(starts, cast("dict[str, int]", event)["first_line"]) - 1
        if at >= 0 and idents[at] == thread:
            kept.append(event)
    return kept


def events_between(log: _native.CompileLog, after: int, upto: int) -> list[CompileEvent]:
    """Compile events whose first event is on a line in ``(after, upto]``,
    with the ``first_line`` and ``last_line`` that place them in the log."""
    return cast("list[CompileEvent]", json.loads(log.events_json(after, upto)))


def drop_lines(event: CompileEvent) -> None:
    """Removes the log lines ``events_between`` adds (not part of an event as users see it)."""
    extra = cast("dict[str, object]", event)
    extra.pop("first_line", None)
    extra.pop("last_line", None)
