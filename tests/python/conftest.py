"""Shared helpers for the activation-trace tests: small real models, strict
JSONL reading, and a compile counter fed by torch's structured trace log."""

import contextlib
import json
import logging

import pytest


def read_jsonl(path):
    """Every line of `path` as strict JSON (NaN/Infinity literals are rejected)."""

    def reject(constant):
        raise ValueError(f"non-standard JSON constant {constant}")

    with open(path) as f:
        return [json.loads(line, parse_constant=reject) for line in f]


def step_row(steps_text, step):
    """The row of `step` in `guardscope steps`' "Slowest steps" and the lines
    under it (its compiles, wrapped to the terminal's width), joined into one
    line; None when the step has no row. The first line counts steps: not it."""
    lines = steps_text.splitlines()
    at = next((i for i, line in enumerate(lines) if line.split()[:1] == [str(step)] and " ms " not in line), None)
    if at is None:
        return None
    block = [lines[at]]
    for line in lines[at + 1 :]:
        if not line.strip() or line.split()[0].isdigit():
            break
        block.append(line)
    return " ".join(" ".join(block).split())


class CompileLog(logging.Handler):
    """Collects compile ids (frame_id, frame_compile_id) and artifact names
    from the structured events torch sends to ``trace_log``."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.compile_ids = set()
        self.artifacts = []
        #: function name of each frame, from dynamo_start
        self.functions = {}
        #: payloads of recompile_reasons artifacts
        self.reasons = []

    def emit(self, record):
        metadata = getattr(record, "metadata", None) or {}
        if metadata.get("frame_id") is not None and metadata.get("frame_compile_id") is not None:
            self.compile_ids.add((metadata["frame_id"], metadata["frame_compile_id"]))
        if "dynamo_start" in metadata:
            stack = metadata["dynamo_start"].get("stack") or [{}]
            self.functions[metadata.get("frame_id")] = stack[-1].get("name")
        if "artifact" in metadata:
            name = metadata["artifact"].get("name")
            self.artifacts.append(name)
            if name == "recompile_reasons":
                self.reasons.append(str(getattr(record, "payload", "")))

    @property
    def recompiles(self):
        return sorted(cid for cid in self.compile_ids if cid[1] > 0)

    @property
    def graph_breaks(self):
        return self.artifacts.count("dynamo_graph_break_reason")


@contextlib.contextmanager
def compile_log():
    """Counts compiles in the block, with a fresh Dynamo cache and counters."""
    import torch
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    log = CompileLog()
    trace_log = torch._logging._internal.trace_log
    trace_log.addHandler(log)
    try:
        yield log
    finally:
        trace_log.removeHandler(log)
        log.unique_graphs = counters["stats"]["unique_graphs"]
        log.graph_break_count = sum(counters["graph_break"].values())
        torch._dynamo.reset()


@pytest.fixture
def torch():
    import torch

    torch.manual_seed(0)
    return torch


def hook_count(model):
    return sum(len(m._forward_hooks) for m in model.modules())
