"""What the framework callbacks share: one training run's StepLogger, the
compile metrics since the last log and in total, and the recompile budget.

The callbacks only say when a step starts and ends and when the framework
logs; everything about compiles comes from ``StepLogger`` (its records, its
warning) and ``no_recompiles``'s error text, so the three never disagree.
"""

from __future__ import annotations

import logging
import os
from typing import Iterable, Optional, Union

from guardscope._guards import RecompileError, allowed, categories, over_budget, recompile_message, unrecognised
from guardscope._step_records import by_cause, recompiles_from
from guardscope._steps import StepLogger
from guardscope._types import Category, CompileEvent, StepRecord

logger = logging.getLogger("guardscope")

#: The metric names, as every logger receives them: per logging window, then
#: the same four summed since training started.
WINDOW = (
    "compile/compiles",
    "compile/recompiles",
    "compile/seconds",
    "compile/graph_break_events",
    "compile/recompile_causes",
)
TOTAL = tuple(f"{name}_total" for name in WINDOW)


class Budget:
    """``max_recompiles`` and ``max_recompile_causes`` (None: no such budget)
    after ``warmup_steps``, ``allow`` categories exempt."""

    def __init__(
        self,
        warmup_steps: int,
        max_recompiles: Optional[int],
        allow: Union[Category, Iterable[Category]],
        max_recompile_causes: Optional[int] = None,
    ) -> None:
        if warmup_steps < 0 or any(n is not None and n < 0 for n in (max_recompiles, max_recompile_causes)):
            raise ValueError("warmup_steps, max_recompiles and max_recompile_causes must be >= 0")
        self.warmup_steps = warmup_steps
        self.max_recompiles = max_recompiles
        self.max_recompile_causes = max_recompile_causes
        self.allow = categories(allow)

    @property
    def set(self) -> bool:
        return self.max_recompiles is not None or self.max_recompile_causes is not None


class Session:
    """One training run: its step file, metrics and budget.

    Only the deliberate ``RecompileError`` leaves ``compiled``; anything else that
    goes wrong here logs one warning and turns the session off, so that the
    user's training goes on as if there were no callback.
    """

    def __init__(self, path: str, budget: Budget, warn: bool) -> None:
        # Appended: a run resumed from a checkpoint, or train() run again
        # after an exception, keeps the earlier attempts' records (each
        # attempt its own ``session``).
        self.log = StepLogger(path, warn=warn, append=True)
        self.budget = budget
        # compiles, recompiles, compile microseconds, graph breaks, recompile
        # causes: integers, so that windows add up to the totals exactly and
        # no round() runs at a log.
        self.window = [0, 0, 0, 0, 0]
        self.total = [0, 0, 0, 0, 0]
        self.counted: list[CompileEvent] = []
        self.closed = False

    @property
    def path(self) -> str:
        return self.log.path

    def compiled(self, record: StepRecord) -> None:
        """Takes the record of a step in which something compiled (or a
        counter moved): metrics, and ``RecompileError`` past the budget.

        The callbacks call ``self.log.begin`` and ``self.log._end``
        themselves and this only when ``_end`` gives a dict (not the tuple of
        a step in which nothing happened): no call of their own per step,
        each a couple of microseconds after a small model's step."""
        compiles = record["compiles"]
        if compiles or record["graph_breaks"]:
            causes = len(by_cause(e for e in compiles if e.get("recompile"))) if record["recompiles"] else 0
            self._add(
                len(compiles), record["recompiles"], round(record["compile_s"] * 1_000_000), record["graph_breaks"], causes
            )
        # log.records: the steps ended so far, this one included.
        budget = self.budget
        if record["recompiles"] and budget.set and self.log.records > budget.warmup_steps:
            self.counted.extend(e for e in compiles if e.get("recompile") and not allowed(e, budget.allow))
            if over_budget(self.counted, budget.max_recompiles, budget.max_recompile_causes) or any(
                unrecognised(e) for e in self.counted
            ):
                self.close()
                raise RecompileError(self._message(), list(self.counted))

    def _add(self, compiles: int, recompiles: int, microseconds: int, breaks: int, causes: int) -> None:
        for values in (self.window, self.total):
            values[0] += compiles
            values[1] += recompiles
            values[2] += microseconds
            values[3] += breaks
            values[4] += causes

    def metrics(self, window: bool = True) -> dict[str, Union[int, float]]:
        """The metrics to log now (``window=False``: the totals only); the window restarts."""
        # One dict literal, seconds divided once (the float of the 6-decimal
        # value, as round() gives): this runs at every log, right after a
        # step has evicted the caches, where each extra call shows.
        c, r, us, b, k = self.total
        if not window:
            return {
                "compile/compiles_total": c,
                "compile/recompiles_total": r,
                "compile/seconds_total": us / 1_000_000,
                "compile/graph_break_events_total": b,
                "compile/recompile_causes_total": k,
            }
        wc, wr, wus, wb, wk = self.window
        if wc or wr or wus or wb:
            self.window = [0, 0, 0, 0, 0]
        return {
            "compile/compiles": wc,
            "compile/recompiles": wr,
            "compile/seconds": wus / 1_000_000,
            "compile/graph_break_events": wb,
            "compile/recompile_causes": wk,
            "compile/compiles_total": c,
            "compile/recompiles_total": r,
            "compile/seconds_total": us / 1_000_000,
            "compile/graph_break_events_total": b,
            "compile/recompile_causes_total": k,
        }

    def _message(self) -> str:
        budget = self.budget
        after = f" after {budget.warmup_steps} warm-up step(s)" if budget.warmup_steps else ""
        failed = over_budget(self.counted, budget.max_recompiles, budget.max_recompile_causes)
        # Past no budget: an unrecognised recompile, which no budget excuses.
        limits = " and ".join(failed) or f"max_recompiles={budget.max_recompiles}"
        if any("causes" in f for f in failed):
            limits += " (one cause can recompile many frames)"
        header = (
            f"{recompiles_from(self.counted)} during training{after}, more than "
            f"{limits}; training stopped at step {self.log.last['step'] if self.log.last else '?'}:"
        )
        return recompile_message(header, self.counted)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.log.close()


def step_file(directory: Union[str, os.PathLike[str], None], rank: int) -> str:
    """``DIRECTORY/steps_<rank>.jsonl`` (the current directory when None)."""
    return os.path.join(os.fspath(directory) if directory else ".", f"steps_{rank}.jsonl")


class Guarded:
    """Runs a callback's work so that only ``RecompileError`` escapes: a
    failure logs one warning and the callback does nothing more."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.failed = False

    def fail(self, what: str, exc: BaseException) -> None:
        if not self.failed:
            self.failed = True
            logger.warning(
                "%s could not %s (%s: %s); its step records and compile metrics are off for the rest of the run",
                self.owner,
                what,
                type(exc).__name__,
                exc,
            )
