"""Compile assertions for tests and pre-merge checks: ``no_recompiles`` and
``compile_events``."""

from __future__ import annotations

import contextlib
import functools
import threading
from types import TracebackType
from typing import Any, Callable, Iterable, Iterator, Literal, Optional, TypeVar, cast

from guardscope import _compile_log, _native, _step_records, _steps
from guardscope._types import Category, CompileEvent


_F = TypeVar("_F", bound=Callable[..., Any])


class RecompileError(AssertionError):
    """A recompile happened inside ``no_recompiles()``. ``events`` holds the
    offending compile events (dicts, as in StepLogger records)."""

    def __init__(self, message: str, events: list[CompileEvent]) -> None:
        super().__init__(message)
        self.events = events


# Tracebacks and pytest name it as users spell it.
RecompileError.__module__ = "guardscope"


class CompileEvents:
    """The compiles seen inside a ``compile_events()`` block, as dicts (the
    fields of a StepLogger record's ``compiles``). Read inside the block for
    the events so far, or after it for all of them."""

    def __init__(self, all_threads: bool = False) -> None:
        self._log: Optional[_native.CompileLog] = None
        self._mark = 0
        self._end: Optional[int] = None
        self._all_threads = all_threads
        self._thread = threading.get_ident()
        self._handler: Optional[_compile_log._Handler] = None

    def _start(self) -> None:
        self._log = _compile_log.SHARED.acquire()
        self._handler = _compile_log.SHARED.handler
        self._mark = self._log.lines
        self._end = None
        self._thread = threading.get_ident()

    def _stop(self) -> None:
        assert self._log is not None
        self._end = self._log.lines
        _compile_log.SHARED.release()

    def _with_lines(self, after: Optional[int] = None) -> list[CompileEvent]:
        """Events after log line ``after`` (default: the block's start),
        still carrying their ``first_line``/``last_line``."""
        if self._log is None:
            return []
        after = self._mark if after is None else after
        upto = self._log.lines if self._end is None else self._end
        if upto <= after:
            return []
        events = _compile_log.events_between(self._log, after, upto)
        if self._all_threads:
            return events
        return _compile_log.on_thread(self._handler, events, self._thread)

    @property
    def events(self) -> list[CompileEvent]:
        events = self._with_lines()
        for event in events:
            _compile_log.drop_lines(event)
        return events

    @property
    def recompiles(self) -> list[CompileEvent]:
        return [e for e in self.events if e.get("recompile")]

    @property
    def graph_breaks(self) -> list[str]:
        return [b for e in self.events for b in e.get("graph_breaks", ())]

    def __iter__(self) -> Iterator[CompileEvent]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def __repr__(self) -> str:
        events = self.events
        recompiles = sum(1 for e in events if e.get("recompile"))
        return f"<CompileEvents: {len(events)} compiles, {recompiles} recompiles>"


@contextlib.contextmanager
def compile_events(all_threads: bool = False) -> Iterator[CompileEvents]:
    """Collects the compiles that happen inside the block::

        with guardscope.compile_events() as seen:
            model(x)
        assert not seen.recompiles, seen.recompiles

    Only the compiles of the thread that entered the block, unless
    ``all_threads=True`` (a model run on other threads).
    """
    seen = CompileEvents(all_threads)
    seen._start()
    try:
        yield seen
    finally:
        seen._stop()


class no_recompiles(contextlib.ContextDecorator):
    """Raises ``RecompileError`` when code inside recompiles a frame.

    ::

        with guardscope.no_recompiles(warmup_steps=2) as guard:
            for step in range(10):
                guard.step(step)          # or use a StepLogger: it tells the guard
                train_step()

    Also a decorator (``@guardscope.no_recompiles()``), e.g. on a pytest test.
    First compiles of a frame are allowed (a recompile is a compile of a
    frame after its first); so are recompiles during the first
    ``warmup_steps`` steps (steps are counted from ``guard.step()`` calls
    and from ``StepLogger.begin``), recompiles whose category is in
    ``allow`` (e.g. ``("nn_module_attr",)`` for train/eval switches), and up
    to ``max_recompiles`` others (default 0). ``max_recompile_causes=K``
    budgets causes instead: one cause can recompile many frames (one new
    length through a model graph breaks split); given alone, it is the only
    budget, and with ``max_recompiles`` both must hold. The check runs when the block ends; an
    exception already leaving the block is never masked.

    Only the thread that entered the block is watched: another thread's
    recompile is not this block's. ``all_threads=True`` watches every
    thread, for code that runs the model on threads of its own.
    """

    def __init__(
        self,
        warmup_steps: int = 0,
        allow: Category | Iterable[Category] = (),
        max_recompiles: Optional[int] = None,
        all_threads: bool = False,
        max_recompile_causes: Optional[int] = None,
    ) -> None:
        if warmup_steps < 0 or any(n is not None and n < 0 for n in (max_recompiles, max_recompile_causes)):
            raise ValueError("warmup_steps, max_recompiles and max_recompile_causes must be >= 0")
        self.warmup_steps = warmup_steps
        self.allow = categories(allow)
        # Neither budget given: no recompile at all, as before causes were counted.
        self.max_recompiles = 0 if max_recompiles is None and max_recompile_causes is None else max_recompiles
        self.max_recompile_causes = max_recompile_causes
        self.all_threads = all_threads
        self._seen: Optional[CompileEvents] = None
        self._steps = 0
        self._from: Optional[int] = None

    def __call__(self, func: _F) -> _F:
        """As a decorator: each call of ``func`` runs inside the guard (what
        ContextDecorator does, in a frame pytest leaves out of tracebacks)."""

        @functools.wraps(func)
        def inner(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True  # noqa: F841
            with self:
                return func(*args, **kwargs)

        return cast(_F, inner)

    def step(self, step: object = None) -> None:
        """Marks the start of a step (``step`` is only informative)."""
        self._steps += 1
        if self._steps == self.warmup_steps + 1:
            # Recompiles from here on count.
            assert self._seen is not None and self._seen._log is not None
            self._from = self._seen._log.lines

    def __enter__(self) -> no_recompiles:
        self._seen = CompileEvents(self.all_threads)
        self._seen._start()
        self._steps = 0
        self._from = self._seen._mark if self.warmup_steps == 0 else None
        _steps._STEP_LISTENERS.append(self.step)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> Literal[False]:
        # pytest shows the failure at the user's `with` line, not in here.
        __tracebackhide__ = True  # noqa: F841
        _steps._STEP_LISTENERS.remove(self.step)
        assert self._seen is not None
        self._seen._stop()
        if exc_type is not None:
            return False
        if self._from is None:
            if self._steps == 0:
                raise ValueError(
                    f"no_recompiles(warmup_steps={self.warmup_steps}) saw no step: call guard.step() at "
                    "the start of each step, or run the steps with a guardscope.StepLogger"
                )
            return False
        counted = self.recompiles
        if over_budget(counted, self.max_recompiles, self.max_recompile_causes) or any(unrecognised(e) for e in counted):
            raise RecompileError(self._message(counted), counted)
        return False

    @property
    def recompiles(self) -> list[CompileEvent]:
        """The counted recompiles so far (after warm-up, not allowed)."""
        if self._seen is None or self._from is None:
            return []
        return [e for e in self._seen._with_lines(self._from) if e["recompile"] and not self._allowed(e)]

    def _allowed(self, event: CompileEvent) -> bool:
        return allowed(event, self.allow)

    def _message(self, events: list[CompileEvent]) -> str:
        budget = f" (allowed: {self.max_recompiles})" if self.max_recompiles else ""
        causes = [b for b in over_budget(events, self.max_recompiles, self.max_recompile_causes) if "causes" in b]
        if causes:
            budget = f", more than {causes[0]} (one cause can recompile many frames)"
        return recompile_message(f"{_step_records.recompiles_from(events)} inside no_recompiles(){budget}:", events)


# Shared with the training-framework callbacks (guardscope.integrations),
# whose max_recompiles= raises the same error with the same text.


def over_budget(counted: list[CompileEvent], max_recompiles: Optional[int], max_recompile_causes: Optional[int]) -> list[str]:
    """The budgets ``counted`` exceeds, as their keywords (``max_recompiles=2``);
    None is no budget. Causes are the Rust core's groups (``cause.group``)."""
    failed = []
    if max_recompiles is not None and len(counted) > max_recompiles:
        failed.append(f"max_recompiles={max_recompiles}")
    if max_recompile_causes is not None and len(_step_records.by_cause(counted)) > max_recompile_causes:
        failed.append(f"max_recompile_causes={max_recompile_causes}")
    return failed


def categories(allow: Category | Iterable[Category]) -> frozenset[str]:
    """``allow=`` as a set, refusing names that are not recompile categories."""
    if isinstance(allow, str):
        allow = (allow,)
    unknown = sorted(set(allow) - set(_native.CATEGORIES))
    if unknown:
        raise ValueError(f"unknown recompile categories {unknown}; known: {', '.join(_native.CATEGORIES)}")
    return frozenset(allow)


def allowed(event: CompileEvent, allow: frozenset[str]) -> bool:
    """Whether ``event``'s classified cause is one of the ``allow`` categories."""
    cause = event["cause"]
    return cause is not None and cause["category"] in allow


def unrecognised(event: CompileEvent) -> bool:
    """A counted recompile whose guard text guardscope does not read: no
    budget excuses it (fail closed), only ``allow=\"other\"``."""
    cause = event["cause"]
    return cause is not None and not cause.get("recognised", True)


def recompile_message(header: str, events: list[CompileEvent]) -> str:
    """``header``, then each cause classified once (the recompiles one change
    made across frames together): failed guard, what changed, the fix."""
    lines = [header]
    unread = sum(1 for e in events if unrecognised(e))
    if unread:
        lines.append(
            f"  {unread} of them not recognised: guardscope does not read the guard text "
            "(shown raw below), so no budget excuses it"
        )
    for group in _step_records.by_cause(events):
        event = group[0]
        lines.append("  " + _step_records.describe_cause(group))
        if len(group) > 1:
            others = ", ".join(f"{e['compile_id']} {e.get('name') or e.get('function') or '?'}" for e in group)
            lines.append(f"      one cause, one recompile per frame: {others}")
        cause = event["cause"]
        if cause is None:
            continue
        if cause["guard"]:
            lines.append(f"      failed guard: {cause['guard']}")
        changed = cause["changed"]
        if changed:
            shown = "; ".join(f"{c['subject']}: {c['old']} -> {c['new']}" for c in changed[:3])
            more = f"; +{len(changed) - 3} more" if len(changed) > 3 else ""
            lines.append(f"      changed: {shown}{more}")
        evidence = cause.get("evidence")
        if evidence and evidence["text"]:
            lines.append(f"      why: {cause['severity']} ({evidence['kind']}): {evidence['text']}")
        owner = cause.get("owner")
        if owner:
            entry = cause.get("entry")
            of_entry = f"; cause entry: {entry}" if entry else ""
            lines.append(f"      owner: {owner}{of_entry}")
        if cause["advice"]:
            lines.append(f"      fix: {cause['advice']}")
    return "\n".join(lines)
