"""Hard cases for the hooks: a trace file deleted mid-run. Training goes on
and the hooks say once what happened.

Real torch on CPU throughout.
"""

import logging
import os

import pytest
import torch
from _models import Net
from conftest import read_jsonl

import guardscope


def guardscope_warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "guardscope" and r.levelno >= logging.WARNING]


@pytest.mark.parametrize("mode", ["op", "disable"])
def test_a_trace_file_deleted_mid_run_is_created_again_with_one_warning(tmp_path, caplog, mode):
    model = Net()
    path = tmp_path / "t.jsonl"
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        with guardscope.trace_activations(model, output=path, mode=mode) as trace:
            for step in range(5):
                trace.set_step(step)  # flushes the previous step
                if step == 2:
                    os.unlink(path)  # steps 0 and 1 went with it
                model(torch.randn(2, 8))
            assert trace.enabled and trace.error is None, "training and tracing go on"
    [warning] = guardscope_warnings(caplog)
    assert str(path) in warning and "deleted" in warning and "created again" in warning, warning
    steps = [r["step"] for r in read_jsonl(path)]
    assert sorted(set(steps)) == [2, 3, 4], "the records from the deletion on are in the file at the path"
    assert steps.count(2) == steps.count(4) > 0
