"""The fixes a rehearsal can try without a code edit, and how a replay judges them.

A fix that is a ``torch._dynamo.config`` setting can be applied to the plan
as it is: the rehearsal replays the plan with the setting and compares the
two predictions. A fix is verified when the recompile it targets is gone
and the replay has no recompile, graph break or unseen part the first did
not. A fix that needs a code edit is kept as advice, marked unverified.
A size that changed is also tried with its dim marked dynamic, the
``torch._dynamo.mark_dynamic`` line the advice gives, applied by the
replay itself (``_marks``). This module only chooses and judges;
``_rehearse`` runs the replays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from guardscope import _native
from guardscope._load import Recompile, Run

__all__ = ["Candidate", "Fix", "Mark", "candidates", "judge", "not_tried", "unverified"]

Key = Tuple[Optional[str], str, str]

#: Settings tried per category: (what to write, the settings).
_BY_CATEGORY: Mapping[str, Tuple[str, Mapping[str, Any]]] = {
    "shape_input": (
        "torch.compile(..., dynamic=True), or torch._dynamo.config.assume_static_by_default = False",
        {"assume_static_by_default": False},
    ),
    "nn_module_attr": (
        "torch._dynamo.config.allow_unspec_int_on_nn_module = True",
        {"allow_unspec_int_on_nn_module": True},
    ),
}

#: The limit tried when a frame hit it: high enough for a plan of a few steps.
RAISED_LIMIT = 64


@dataclass(frozen=True)
class Mark:
    """``torch._dynamo.mark_dynamic(TENSOR, DIM)`` before each call of a compiled function."""

    #: The compiled function (its code object's name, file and first line).
    function: str
    file: Optional[str]
    line: Optional[int]
    #: The tensor as the failed guard names it among the function's
    #: arguments (``x``, ``L['x']``, ``batch['input_ids']``).
    tensor: str
    dim: int

    @property
    def argument(self) -> str:
        """The tensor as you name it where you call: ``x`` for ``L['x']``."""
        return self.tensor[3:-2] if self.tensor.startswith("L['") and self.tensor.endswith("']") else self.tensor

    def __str__(self) -> str:
        return f"torch._dynamo.mark_dynamic(<the tensor you pass as {self.argument}>, {self.dim}) before each call of {self.function}"


@dataclass(frozen=True)
class Fix:
    """A fix for one predicted recompile: tried by replaying the plan, or advice."""

    compile_id: str
    function: Optional[str]
    category: str
    #: What to do, as you would write it.
    fix: str
    #: The ``torch._dynamo.config`` settings the replay applied (empty for advice).
    settings: Mapping[str, Any] = field(default_factory=dict)
    #: True when the plan was replayed with the fix; False for advice (a code edit).
    verified: bool = False
    #: Whether the replay removed the recompile without adding any; None when not tried.
    works: Optional[bool] = None
    #: What the replay showed, or why it was not tried.
    detail: str = ""
    #: The dim the replay marked dynamic (the fix is that line before the
    #: call); None for a setting or advice.
    mark: Optional[Mark] = None

    def __str__(self) -> str:
        state = "unverified advice" if not self.verified else ("verified" if self.works else "tried, does not help")
        return f"{self.compile_id} [{self.category}] {state}: {self.fix} ({self.detail})"


@dataclass(frozen=True)
class Candidate:
    """A setting to replay the plan with, and the recompile it targets."""

    recompile: Recompile
    fix: str
    settings: Mapping[str, Any]
    #: "recompile": the recompile must go; "limit": the frame must stop hitting the limit.
    goal: str
    mark: Optional[Mark] = None


def _key(r: Recompile) -> Key:
    cause = r.cause
    return (r.function, "" if cause is None else cause.category, "" if cause is None else cause.culprit)


def _limit_hit(run: Run) -> bool:
    return any(c.cache_limit for f in run.frames for c in f.compiles)


def _mark(run: Run, r: Recompile) -> Optional[Mark]:
    """The dim to mark for a size that changed: the tensor and dim of the
    cause's failed guard, in the frame that recompiled."""
    index = r.data.get("cause_index")
    reasons = r.data.get("reasons") or []
    if r.function is None or index is None or index >= len(reasons):
        return None
    found = _native.size_guard(reasons[index].get("guard") or "")
    frame = next((f for f in run.frames if f.frame_id == r.frame_id and f.rank == r.rank), None)
    if found is None or frame is None:
        return None
    return Mark(r.function, frame.file, frame.line, found[0], found[1])


def candidates(run: Run) -> List[Candidate]:
    """The fixes worth a replay, one of each kind per predicted cause."""
    found = []
    seen: set[Tuple[Key, object]] = set()
    for r in run.recompiles:
        if r.cause is None:
            continue
        known = _BY_CATEGORY.get(r.cause.category)
        if known is not None and (_key(r), "setting") not in seen:
            seen.add((_key(r), "setting"))
            found.append(Candidate(r, known[0], known[1], "recompile"))
        mark = _mark(run, r) if r.cause.category == "shape_input" else None
        if mark is not None and (_key(r), mark) not in seen:
            seen.add((_key(r), mark))
            found.append(Candidate(r, str(mark), {}, "recompile", mark))
    if _limit_hit(run) and run.recompiles:
        at_limit = [r for r in run.recompiles if r.cause is not None and r.cause.category == "cache_limit"]
        hit = (at_limit or list(run.recompiles))[-1]
        setting = f"torch._dynamo.config.recompile_limit = {RAISED_LIMIT} (or torch.compile(..., recompile_limit=N) on 2.15)"
        found.append(Candidate(hit, setting, {"recompile_limit": RAISED_LIMIT}, "limit"))
    return found


def judge(candidate: Candidate, before: Run, before_unseen: int, after: Run, after_unseen: Sequence[str]) -> Fix:
    """Whether the replay with the candidate's fix removed its target and
    added no recompile, graph break or unseen part (``after_unseen``: the
    replay's, as ``str(Unseen)``; the first new one is said, e.g. torch
    refusing a mark because the code specialises the dim)."""
    r = candidate.recompile
    old, new = Counter(_key(x) for x in before.recompiles), Counter(_key(x) for x in after.recompiles)
    target = _key(r)
    added = sum(max(0, n - old[k]) for k, n in new.items() if k != target)
    breaks = after.totals.graph_breaks - before.totals.graph_breaks
    unseen = len(after_unseen) - before_unseen
    if candidate.goal == "limit":
        removed = not _limit_hit(after)
        added = 0
        gone = "no frame hits the recompile limit" if removed else "a frame still hits the limit"
    else:
        removed = new[target] == 0
        gone = f"{r.compile_id}'s recompile is gone" if removed else f"{new[target]} such recompile(s) remain"
    extra = []
    if added:
        extra.append(f"{added} other recompile(s) added")
    if breaks > 0:
        extra.append(f"{breaks} graph break(s) added")
    if unseen > 0:
        first = after_unseen[before_unseen] if 0 <= before_unseen < len(after_unseen) else after_unseen[-1]
        extra.append(f"{unseen} unseen part(s) added, first: {first[:400]}")
    works = removed and added == 0 and breaks <= 0 and unseen <= 0
    detail = "replayed: " + "; ".join([gone, *extra]) + f" ({after.totals.recompiles} recompile(s) in all, was {before.totals.recompiles})"
    return Fix(r.compile_id, r.function, r.cause.category if r.cause else "", candidate.fix, dict(candidate.settings), True, works, detail, candidate.mark)


def not_tried(candidate: Candidate, why: str) -> Fix:
    """A fix the replay could not apply (an argument never found, a torch
    without the hook): unverified, with why."""
    r = candidate.recompile
    return Fix(r.compile_id, r.function, r.cause.category if r.cause else "", candidate.fix, dict(candidate.settings), False, None, f"not tried: {why}", candidate.mark)


def unverified(run: Run, tried: List[Candidate]) -> List[Fix]:
    """Advice for the predicted problems no setting was tried for, one per
    cause: the fix guardscope names for them, which needs a code edit."""
    covered = {_key(c.recompile) for c in tried}
    advice = []
    for r in run.recompiles:
        # One per cause: the same culprit recompiling eight times is one fix.
        if r.cause is not None and r.severity == "problem" and _key(r) not in covered:
            covered.add(_key(r))
            advice.append(Fix(r.compile_id, r.function, r.cause.category, r.cause.advice, {}, False, None, "needs a code edit: not tried"))
    return advice
