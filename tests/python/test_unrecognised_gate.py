"""A guard text guardscope does not read fails the gate whatever its
budget, with the raw text and no fix of guardscope's own (fail closed).

Real torch and a real torch.compile recompile (a str argument takes a new
value); only the text of the recompile reason is replaced, by a logging
filter on torch's trace logger, with a text torch never writes
(HAND-MADE: ``___guard_nobody_reads(mode, 7)``), standing for any text the
table has no row for. The same run without the filter passes the budget.
"""

import contextlib
import logging

import pytest
import torch

import guardscope

INVENTED = "___guard_nobody_reads(mode, 7)"


class _ReplaceReasons(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        meta = getattr(record, "metadata", None) or {}
        if (meta.get("artifact") or {}).get("name") == "recompile_reasons":
            record.payload = f"0/0: {INVENTED}"
        return True


@contextlib.contextmanager
def invented_reason_texts():
    trace_log = torch._logging._internal.trace_log
    f = _ReplaceReasons()
    trace_log.addFilter(f)
    try:
        yield
    finally:
        trace_log.removeFilter(f)


def step(mode: str) -> None:
    @torch.compile(backend="aot_eager")
    def f(x, mode):
        return x * 2 if mode == "sum" else x * 3

    x = torch.randn(4)
    f(x, "sum")
    f(x, mode)


def test_an_unrecognised_text_raises_within_the_budget_and_offers_no_fix():
    torch._dynamo.reset()
    with invented_reason_texts():
        with pytest.raises(guardscope.RecompileError) as raised:
            with guardscope.no_recompiles(max_recompiles=5):
                step("mean")
    message = str(raised.value)
    assert "1 of them not recognised" in message, message
    assert f"failed guard: {INVENTED}" in message, message
    assert "No fix offered" in message, message
    assert "two values" not in message and "as a tensor" not in message, message
    (event,) = raised.value.events
    cause = event["cause"]
    assert cause["recognised"] is False
    assert cause["form"] == "unrecognised"
    assert cause["severity"] == "problem"
    assert cause["evidence"]["kind"] == "not_recognised"
    assert cause["owner"] == "unknown"


def test_the_same_recompile_read_by_the_table_stays_within_the_budget():
    torch._dynamo.reset()
    with guardscope.compile_events() as seen, guardscope.no_recompiles(max_recompiles=5):
        step("mean")
    (event,) = seen.recompiles
    assert event["cause"]["recognised"] is True
    assert event["cause"]["form"] == "value.constant"
