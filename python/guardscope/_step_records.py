"""What a StepLogger record says: its fields, built from a step's times,
Dynamo's counters before and after it, and the compile events it saw; and
one line for a compile event, for warnings and messages. No file, no
state: ``_steps.py`` decides when a record is made and written."""

from __future__ import annotations

import json
import os
from typing import Any, Optional, Tuple

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


def record_head(rank: Optional[int], pid: int) -> str:
    """The record's fields after ``wall_ms`` that are the same every step, as JSON."""
    rank_field = "" if rank is None else f'"rank": {json.dumps(rank)}, '
    return f'{rank_field}"pid": {pid}, "compile_s": 0, "recompiles": 0, '


def _record_start(step: int, start_ns: int, wall_ns: int, rank: Optional[int], pid: int) -> StepRecord:
    """A record's first fields: the step, when it started and how long it took
    (to the microsecond), its rank when known and the pid."""
    # Built key by key: the keys' order is the line's, rank in its place.
    record: StepRecord = {  # type: ignore[typeddict-item]
        "step": step,
        "start": (start_ns + 500) // 1000 / 1_000_000,
        "wall_ms": (wall_ns + 500) // 1000 / 1000,
    }
    if rank is not None:
        record["rank"] = rank
    record["pid"] = pid
    return record


def quiet_record(step: int, start_ns: int, wall_ns: int, rank: Optional[int], pid: int) -> StepRecord:
    """The dict of a step without compiles whose counters did not move."""
    record = _record_start(step, start_ns, wall_ns, rank, pid)
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
) -> StepRecord:
    """The record of a step in which something compiled or a counter moved."""
    record = _record_start(step, start_ns, wall_ns, rank, pid)
    compile_s = sum((e.get("seconds") or 0.0) + (e.get("backward_seconds") or 0.0) for e in compiles)
    record["compile_s"] = round(compile_s, 6)
    record["recompiles"] = sum(1 for e in compiles if e.get("recompile"))
    record["graph_breaks"] = after[3] - before[3]
    record["counters"] = {  # type: ignore[typeddict-item]
        name: a - b for name, a, b in zip(COUNTER_NAMES, after, before)
    }
    record["compiles"] = compiles
    return record
