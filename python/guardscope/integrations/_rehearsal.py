"""What the callbacks' ``rehearse=True`` shares: the batches a loader will
give, made in the rehearsal's process, and what is said and done with the
prediction.

A loader is never iterated in the user's process: drawing from its sampler
moves the random state the real epoch's order comes from, a worker pool
would start, and accelerate's loaders move batches to the GPU (which a
forked process cannot touch). ``Batches`` keeps what makes its batches (the
dataset, the collate function, the batch size, how many samples an epoch
has); ``Batches.make`` runs in the rehearsal's process, where the random
state and everything else it touches are thrown away with the process.
"""

from __future__ import annotations

import logging
import random
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from guardscope._rehearse import PredictedProblemError, Rehearsal, RehearsalError, rehearse

__all__ = ["Batches", "Outcome", "Rehearsing", "batches_of", "meta_wrapped", "run"]

logger = logging.getLogger("guardscope")

#: Full batches rehearsed per loader (the last, short one comes on top).
SAMPLE = 4

OnProblem = str


@dataclass(frozen=True)
class Batches:
    """How a DataLoader's batches are made, read without iterating it."""

    name: str
    dataset: Any
    collate: Callable[[List[Any]], Any]
    size: int
    #: Samples an epoch gives this process; None for an iterable dataset.
    length: Optional[int]
    drop_last: bool
    #: In dataset order (evaluation): the batches made are the real first ones.
    sequential: bool

    @property
    def last(self) -> int:
        """The size of the epoch's last, short batch (0: none)."""
        if self.length is None or self.drop_last:
            return 0
        return self.length % self.size

    def describe(self) -> str:
        if self.length is None:
            return f"{self.name}: batches of {self.size}, length unknown (an iterable dataset: the last batch is not rehearsed)"
        last = f", last batch {self.last}" if self.last else ""
        return f"{self.name}: {self.length} samples in batches of {self.size}{last}"

    def make(self, count: int) -> List[Any]:
        """Up to ``count`` full batches and the last, short one, collated from
        the dataset (the rehearsal's process only)."""
        if self.length is None:
            import torch.utils.data

            loader = torch.utils.data.DataLoader(self.dataset, batch_size=self.size, collate_fn=self.collate)
            made = []
            for batch in loader:
                made.append(batch)
                if len(made) == count:
                    break
            return made
        items = len(self.dataset)
        full = min(count, self.length // self.size)
        groups: List[List[int]]
        if self.sequential:
            groups = [list(range(i * self.size, (i + 1) * self.size)) for i in range(full)]
            if self.last:
                groups.append(list(range(self.length - self.last, self.length)))
        else:
            # A shuffled epoch's first batches: any samples, a seeded draw of
            # its own (the global random state is the job's).
            draw = random.Random(0)
            groups = [draw.sample(range(items), self.size) for _ in range(full)]
            if self.last:
                groups.append(draw.sample(range(items), self.last))
        return [self.collate([self.dataset[i] for i in group]) for group in groups]


def batches_of(name: str, loader: Any) -> Optional[Batches]:
    """The ``Batches`` of a DataLoader (accelerate's and Lightning's too);
    None when it has no fixed batch size (a custom batch sampler)."""
    from torch.utils.data import SequentialSampler

    batch_sampler = getattr(loader, "batch_sampler", None)
    size = getattr(loader, "batch_size", None)
    drop_last = bool(getattr(loader, "drop_last", False))
    if size is None:
        size = getattr(batch_sampler, "batch_size", None)
        drop_last = bool(getattr(batch_sampler, "drop_last", False))
    dataset = getattr(loader, "dataset", None)
    collate = getattr(loader, "collate_fn", None)
    if not isinstance(size, int) or size <= 0 or dataset is None or collate is None:
        return None
    sampler = getattr(batch_sampler, "sampler", None) or getattr(loader, "sampler", None)
    length: Optional[int]
    try:
        length = len(sampler) if sampler is not None else len(dataset)
        len(dataset)
    except TypeError:
        length = None
    return Batches(name, dataset, collate, size, length, drop_last, isinstance(sampler, SequentialSampler))


def meta_wrapped(wrapped: Any, model: Any, meta: Any) -> Any:
    """The meta copy of the module the loop calls: ``wrapped`` is ``model``
    inside ``torch.compile`` and data-parallel wrappers, ``meta`` is
    ``to_meta(model)``; compiled layers are compiled the same way around
    ``meta``, data-parallel ones left out (there is no process group)."""
    import torch

    if wrapped is model:
        return meta
    if isinstance(wrapped, torch._dynamo.eval_frame.OptimizedModule):
        return torch._dynamo.eval_frame.OptimizedModule(meta_wrapped(wrapped._orig_mod, model, meta), wrapped.dynamo_ctx)
    inner = getattr(wrapped, "module", None)
    if isinstance(inner, torch.nn.Module):
        return meta_wrapped(inner, model, meta)
    return meta


@dataclass
class Outcome:
    """A rehearsal's result as the callbacks report it."""

    rehearsal: Optional[Rehearsal]
    text: str
    problems: int
    metrics: Dict[str, Union[int, float]]


def _problems(rehearsal: Rehearsal) -> Tuple[int, List[str]]:
    lines = []
    bad = [r for r in rehearsal.recompiles if r.severity == "problem"]
    for r in bad:
        lines.append(f"  {r.compile_id} {r.function or '?'}: {r.cause or 'no reason logged'} ({r.advice or 'no fix known'})")
    # A limit hit is a problem even where its recompile is judged another way.
    hits = rehearsal.totals.cache_limit_hits
    if any(r.cause is not None and r.cause.category == "cache_limit" for r in bad):
        hits = 0
    if hits:
        lines.append(f"  {hits} frame(s) hit the recompile limit and will run eagerly from then on")
    lines += [f"  unseen (not predicted): {u}" for u in rehearsal.unseen]
    return len(bad) + hits + len(rehearsal.unseen), lines


def _text(owner: str, rehearsal: Rehearsal, shapes: List[str], problems: List[str]) -> str:
    lines = [f"{owner} rehearsed the training loop on a meta copy of the model (predicted by a {rehearsal.level}, {rehearsal.seconds:.1f} s):"]
    lines += [f"  {s}" for s in shapes]
    totals = rehearsal.totals
    lines.append(f"  predicted: {totals.compiles} compile(s), {totals.recompiles} recompile(s), {totals.graph_breaks} graph break(s)")
    for r in rehearsal.recompiles:
        lines.append(f"    {r.compile_id} {r.severity}: {r.function or '?'} {r.cause or 'no reason logged'}")
    if problems:
        lines.append("  predicted problems:")
        lines += [f"  {p}" for p in problems]
    lines += [f"  fix: {f}" for f in rehearsal.verified_fixes]
    lines.append(f"  it cannot see {rehearsal.cannot_see}")
    return "\n".join(lines)


def run(owner: str, plan: Callable[[], object], shapes: List[str], on_problem: OnProblem, *, verify_fixes: bool, speak: bool = True) -> Optional[Outcome]:
    """Rehearses ``plan``, logs what it predicts, and raises
    ``PredictedProblemError`` when ``on_problem="raise"`` and it predicts a
    problem or could not see part of the loop. None when the rehearsal
    itself failed (logged once: the user's training goes on)."""
    try:
        rehearsal = rehearse(plan, verify_fixes=False)
        if verify_fixes and _problems(rehearsal)[0]:
            # The replays that verify fixes cost a rehearsal each: only for a problem.
            rehearsal = rehearse(plan, verify_fixes=True)
    except RehearsalError as exc:
        if exc.unseen:
            message = f"{owner} could not rehearse the training loop: {exc}"
            if on_problem == "raise":
                raise PredictedProblemError(message + "\ntraining was not started (on_problem='raise')", None) from None
            logger.warning("%s", message)
        else:
            logger.warning("%s: the rehearsal compiled nothing (is the model compiled?): %s", owner, exc)
        return None
    except Exception as exc:
        logger.warning("%s could not rehearse the training loop (%s: %s); training goes on unrehearsed", owner, type(exc).__name__, exc)
        return None
    count, problems = _problems(rehearsal)
    text = _text(owner, rehearsal, shapes, problems)
    metrics: Dict[str, Union[int, float]] = {
        "rehearse/compiles": rehearsal.totals.compiles,
        "rehearse/recompiles": rehearsal.totals.recompiles,
        "rehearse/problems": count,
        "rehearse/unseen": len(rehearsal.unseen),
        "rehearse/seconds": round(rehearsal.seconds, 3),
    }
    if count and on_problem == "raise":
        raise PredictedProblemError(text + "\ntraining was not started (on_problem='raise')", rehearsal)
    if speak and count:
        logger.warning("%s", text)
    elif speak:
        print(text, file=sys.stderr)
    return Outcome(rehearsal, text, count, metrics)


class Rehearsing:
    """A callback's ``rehearse=``, ``on_problem=`` and ``rehearse_batches=``,
    and what its one rehearsal gave."""

    def __init__(self, wanted: bool, on_problem: OnProblem, batches: int) -> None:
        if on_problem not in ("warn", "raise"):
            raise ValueError(f"on_problem must be 'warn' or 'raise', not {on_problem!r}")
        if batches < 1:
            raise ValueError("rehearse_batches must be >= 1")
        self.wanted = wanted
        self.on_problem = on_problem
        self.batches = batches
        self.done = False
        #: The last rehearsal's result (None before it, or when it failed).
        self.outcome: Optional[Outcome] = None
        self._unlogged: Dict[str, Union[int, float]] = {}

    def once(self, rehearse_now: Callable[[], Optional[Outcome]]) -> None:
        """Rehearses before the first training run of the callback; only
        ``PredictedProblemError`` leaves (a failure of its own logs one
        warning and training goes on)."""
        if self.done:
            return
        self.done = True
        try:
            self.outcome = rehearse_now()
        except PredictedProblemError:
            raise
        except Exception as exc:
            logger.warning("GuardscopeCallback could not rehearse the training loop (%s: %s); training goes on unrehearsed", type(exc).__name__, exc)
            return
        if self.outcome is not None:
            self._unlogged = dict(self.outcome.metrics)

    def run(self, owner: str, plan: Callable[[], object], shapes: List[str], *, speak: bool) -> Optional[Outcome]:
        return run(owner, plan, shapes, self.on_problem, verify_fixes=True, speak=speak)

    def pending(self) -> Dict[str, Union[int, float]]:
        """The rehearsal's metrics, once: for the first log after it."""
        metrics, self._unlogged = self._unlogged, {}
        return metrics
