"""What a StepLogger record says: its fields, built from a step's times,
Dynamo's counters before and after it, and the compile events it saw; and
one line for a compile event, for warnings and messages. No file, no
state: ``_steps.py`` decides when a record is made and written."""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Optional, Tuple

from guardscope._native import display_site
from guardscope._types import CompileEvent, StepRecord

#: Dynamo's counters at one moment: frames total and ok, unique graphs, graph breaks.
Snapshot = Tuple[int, int, int, int]


def dynamo_counters() -> Any:
    """torch._dynamo's counters (after the supported-torch check)."""
    import guardscope._torch_range  # noqa: F401  (the supported-torch check, first)
    from torch._dynamo.utils import counters

    return counters


COUNTER_NAMES = ("frames_total", "frames_ok", "unique_graphs", "graph_breaks")

#: What follows ``"compiles": 0, "recompiles": 0,`` in the line of a step in
#: which nothing compiled and no Dynamo counter moved.
QUIET_TAIL = (
    '"graph_breaks": 0, "counters": {"frames_total": 0, "frames_ok": 0, "unique_graphs": 0, '
    '"graph_breaks": 0}, "compiles": []}\n'
)



def describe(event: CompileEvent) -> str:
    """One line for a compile event: compile id, frame, seconds and cause."""
    # The frame as summary and steps name it ("Sequential via inner"), from
    # the Rust core; "function" alone in events of older versions.
    where = event.get("name") or event.get("function") or "?"
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


def by_cause(events: Iterable[CompileEvent]) -> list[list[CompileEvent]]:
    """Recompile events grouped by cause, in order: one change that
    recompiled several frames at one call (the Rust core's ``cause.group``)
    is one group."""
    groups: dict[str, list[CompileEvent]] = {}
    for event in events:
        cause = event.get("cause")
        group = cause.get("group") if cause else None
        key = group or f"{event.get('pid')}:{event['compile_id']}"
        groups.setdefault(key, []).append(event)
    return list(groups.values())


def describe_cause(events: list[CompileEvent]) -> str:
    """One line for a cause: ``describe`` of its one recompile, or for a
    cause several frames share, the frames counted once with what changed
    (the step record names each frame)."""
    if len(events) == 1:
        return describe(events[0])
    first = events[0]
    seconds = sum(e.get("seconds") or 0.0 for e in events)
    text = f"{len(events)} frames ({first['compile_id']} +{len(events) - 1}) took {seconds:.2f} s"
    cause = first.get("cause")
    if cause:
        text += f": {cause['label']}: {cause['culprit']}"
        if cause.get("change"):
            text += f", {cause['change']}"
        called_from = cause.get("called_from")
        if called_from:
            text += f" (called from {os.path.basename(called_from)})"
        evidence = cause.get("evidence")
        if cause.get("severity") and evidence:
            text += f" [{cause['severity']}: {evidence['kind'].replace('_', ' ')}]"
    return text


def recompiles_from(events: list[CompileEvent]) -> str:
    """``5 recompile(s)``, or ``5 recompile(s) from 1 cause`` when fewer
    causes made them."""
    causes = len(by_cause(events))
    text = f"{len(events)} recompile(s)"
    if causes < len(events):
        text += f" from {causes} cause" + ("" if causes == 1 else "s")
    return text


def recompiled_line(events: Iterable[CompileEvent], width: int = 200) -> str:
    """A step's recompiles on one line: each cause once, as many as fit in
    ``width`` characters (at least one), then how many more."""
    causes = [describe_cause(c) for c in by_cause(e for e in events if e.get("recompile"))]
    shown = causes[:1]
    for text in causes[1:]:
        if len("; ".join(shown + [text])) > width:
            break
        shown.append(text)
    if len(causes) > len(shown):
        shown.append(f"+{len(causes) - len(shown)} more causes in the step record")
    return "; ".join(shown)


def quiet_lines(pending: Iterable[Tuple[int, int, int]], head: str) -> str:
    """The lines of steps without compiles, ``(step, start ns, wall ns)``
    each, ``head`` the fields after ``wall_ms`` (``record_head``)."""
    # What json.dumps writes of quiet_record's dict (a test checks it), its
    # floats written from the integers: the shortest repr of a 6-decimal
    # start in [1e9, 4e9) s or of a 3-decimal wall time is the decimal
    # itself, trailing zeros cut (tested at the edges), and this takes
    # about a third less time than repr(float).
    lines = []
    for step, start_ns, wall_ns in pending:
        us = (start_ns + 500) // 1000
        if 10**15 <= us < 4 * 10**15:
            digits = str(us)
            start = f"{digits[:-6]}.{digits[-6:].rstrip('0') or '0'}"
        else:  # a clock far off
            start = repr(us / 1_000_000)
        wall = str((wall_ns + 500) // 1000).zfill(4)
        lines.append(
            f'{{"step": {step}, "start": {start}, "wall_ms": {wall[:-3]}.{wall[-3:].rstrip("0") or "0"}, '
            f"{head}{QUIET_TAIL}"
        )
    return "".join(lines)


def record_head(rank: Optional[int], pid: int, session: str) -> str:
    """The record's fields after ``wall_ms`` that are the same every step, as JSON."""
    rank_field = "" if rank is None else f'"rank": {json.dumps(rank)}, '
    return f'{rank_field}"pid": {pid}, "session": {json.dumps(session)}, "compile_s": 0, "recompiles": 0, '


def _record_start(step: int, start_ns: int, wall_ns: int, rank: Optional[int], pid: int, session: str) -> StepRecord:
    """A record's first fields: the step, when it started and how long it took
    (to the microsecond), its rank when known, the pid and the logger's session."""
    # Built key by key: the keys' order is the line's, rank in its place.
    record: StepRecord = {  # type: ignore[typeddict-item]
        "step": step,
        "start": (start_ns + 500) // 1000 / 1_000_000,
        "wall_ms": (wall_ns + 500) // 1000 / 1000,
    }
    if rank is not None:
        record["rank"] = rank
    record["pid"] = pid
    record["session"] = session
    return record


def quiet_record(step: int, start_ns: int, wall_ns: int, rank: Optional[int], pid: int, session: str) -> StepRecord:
    """The dict of a step without compiles whose counters did not move."""
    record = _record_start(step, start_ns, wall_ns, rank, pid, session)
    record["compile_s"] = 0
    record["recompiles"] = 0
    record["graph_breaks"] = 0
    record["counters"] = {"frames_total": 0, "frames_ok": 0, "unique_graphs": 0, "graph_breaks": 0}
    record["compiles"] = []
    return record


def step_record(
    step: int,
    start_ns: int,
    wall_ns: int,
    before: Snapshot,
    after: Snapshot,
    compiles: list[CompileEvent],
    rank: Optional[int],
    pid: int,
    session: str,
) -> StepRecord:
    """The record of a step in which something compiled or a counter moved."""
    record = _record_start(step, start_ns, wall_ns, rank, pid, session)
    compile_s = sum((e.get("seconds") or 0.0) + (e.get("backward_seconds") or 0.0) for e in compiles)
    record["compile_s"] = round(compile_s, 6)
    record["recompiles"] = sum(1 for e in compiles if e.get("recompile"))
    record["graph_breaks"] = after[3] - before[3]
    record["counters"] = {  # type: ignore[typeddict-item]
        name: a - b for name, a, b in zip(COUNTER_NAMES, after, before)
    }
    record["compiles"] = compiles
    return record
