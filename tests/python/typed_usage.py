"""The public API as a typed program uses it: type-checked by mypy --strict
and run by tests/python/test_typing.py (as pydantic-core does), so that the
annotations are both what the type checker sees and what really happens.

A line ending in ``# E: code[, code]`` must fail type checking with exactly
those mypy error codes; such lines sit in ``misuse``, which never runs.
"""

from __future__ import annotations

import os
from typing import Optional, assert_type

import torch

import guardscope
from guardscope import Category, CompileEvent, StepRecord


def run(tmp: str) -> list[CompileEvent]:
    """Traces activations, logs steps that recompile, and collects compile
    events; returns the events of a block that recompiled once."""
    torch._dynamo.reset()
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())

    trace = guardscope.trace_activations(
        model, layers=r"^0$", stats=("abs_mean", "sum"), steps=range(2), output=os.path.join(tmp, "a.jsonl"), mode="op"
    )
    assert_type(trace, guardscope.ActivationTrace)
    compiled = torch.compile(model, backend="eager")
    with guardscope.StepLogger(os.path.join(tmp, "steps.jsonl"), warn=False, trace=trace) as log:
        for step, n in enumerate((2, 3)):
            with log.step(step):
                compiled(torch.randn(n, 4))
        last = log.last
        assert_type(last, Optional[StepRecord])
        assert last is not None and last["step"] == 1
        wall_ms: float = last["wall_ms"]
        assert wall_ms >= 0
    trace.close()
    assert trace.records == 2

    with guardscope.compile_events() as seen:
        model.double()  # the parameters' dtype changes: a recompile
        compiled(torch.randn(5, 4).double())
    events = seen.events
    assert_type(events, list[CompileEvent])
    for event in seen.recompiles:
        cause = event["cause"]
        assert cause is not None
        category: Category = cause["category"]
        assert category == "dtype", category
        seconds: float | None = event["seconds"]
        assert seconds is None or seconds >= 0

    @guardscope.no_recompiles(allow=("dtype",), max_recompiles=1)
    def allowed() -> int:
        model.float()  # back to the first compile's dtype: its entry still holds
        compiled(torch.randn(6, 4))
        return 1

    assert allowed() == 1
    torch._dynamo.reset()
    return events


def loaded(trace_dir: str, baseline_dir: str) -> guardscope.Verdict:
    """Loads a real TORCH_TRACE directory and gates it against a baseline."""
    run = guardscope.load(trace_dir)
    assert_type(run, guardscope.Run)
    first = run.recompiles[0]
    assert_type(first.cause, Optional[guardscope.Cause])
    assert first.cause is not None
    category: Category = first.cause.category
    culprit: str = first.cause.culprit
    called_from: str | None = first.called_from
    assert category and culprit and called_from
    assert run.totals.recompiles == len(run.recompiles)
    assert not run.input_errors
    records: list[dict[str, object]] = run.to_records()
    assert len(records) == run.totals.compiles
    verdict = run.check(max_recompiles=0, allow=["dtype"], baseline=guardscope.load(baseline_dir))
    assert_type(verdict, guardscope.Verdict)
    passed: bool = verdict.passed
    assert passed == bool(verdict)
    return verdict


def rehearsed() -> guardscope.Rehearsal:
    """Rehearses a meta copy of a model over two batch sizes."""
    model = torch.nn.Linear(4, 4)
    meta = guardscope.to_meta(model)
    assert_type(meta, torch.nn.Linear)
    compiled = torch.compile(meta)

    def plan() -> None:
        for n in (8, 3):
            compiled(torch.randn(n, 4, device="meta"))

    rehearsal = guardscope.rehearse(plan, backend="eager")
    assert_type(rehearsal, guardscope.Rehearsal)
    unseen: tuple[guardscope.Unseen, ...] = rehearsal.unseen
    assert unseen == ()
    verdict: guardscope.Verdict = rehearsal.check(allow_unseen=False)
    assert not verdict.passed and rehearsal.recompiles[0].compile_id == "0/1"
    return rehearsal


def misuse() -> None:
    guardscope.StepLogger(123, warnn=True)  # E: arg-type, call-arg
    guardscope.trace_activations(torch.nn.Linear(1, 1), mode="graph")  # E: arg-type
    guardscope.no_recompiles(allow=("dtyp",))  # E: arg-type
    guardscope.main(["summary"]).upper()  # E: attr-defined
    guardscope.load(123)  # E: arg-type
    guardscope.load("t").check(allow=["dtyp"])  # E: list-item
    guardscope.load("t", lastest=True)  # E: call-arg
    guardscope.rehearse(lambda: None, backend=1)  # E: arg-type
