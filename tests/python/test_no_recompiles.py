"""The promise: under torch.compile the hooks add zero recompiles, and in
mode="op" zero graph breaks; the op still records live values every step.

Compiles are counted from torch's structured trace events (compile ids
"frame/n"; a recompile is n > 0) and from counters["stats"]["unique_graphs"],
which, unlike counters["frames"], also move under fullgraph=True.
"""

import copy
import math

import pytest
import torch
from _models import Net, StructuredNet
from conftest import compile_log, read_jsonl

import guardscope

BACKENDS = ["aot_eager", "inductor"]


def train_steps(model, inputs, trace=None, backend="aot_eager", fullgraph=False, on_step=None, log=None, grad=True):
    """Compiles `model` and runs one step per input (forward+backward, or a
    no_grad forward), stepping the trace; returns the compile ids new in each step."""
    compiled = torch.compile(model, backend=backend, fullgraph=fullgraph)
    new_ids = []
    for step, x in enumerate(inputs):
        before = set(log.compile_ids) if log else set()
        if trace is not None:
            trace.set_step(step)
        if on_step is not None:
            on_step(step)
        if grad:
            compiled(x).square().mean().backward()
        else:
            with torch.no_grad():
                compiled(x)
        new_ids.append(sorted(log.compile_ids - before) if log else [])
    return new_ids


def inputs(n, *shape):
    gen = torch.Generator().manual_seed(1)
    return [torch.randn(*shape, generator=gen) for _ in range(n)]


def test_the_counter_sees_the_recompile_of_a_hook_that_reads_a_flag():
    # The incident's bug, to show the counting below can fail: a hook whose
    # closure reads mutable state recompiles when that state changes.
    model = Net()
    state = {"capture": False}

    def naive_hook(module, args, output):
        if state["capture"]:
            state["norm"] = output.detach().abs().mean()

    for block in model.blocks:
        block.register_forward_hook(naive_hook)
    with compile_log() as log:
        per_step = train_steps(model, inputs(4, 3, 8), on_step=lambda s: state.update(capture=s >= 2), log=log)
    # The flag flips at step 2; at step 3 the dict the hook wrote to has a new key.
    assert per_step == [[(0, 0)], [], [(0, 1)], [(0, 2)]]
    assert log.unique_graphs == 3
    assert "['capture']" in log.reasons[0] and "naive_hook" in log.reasons[0]


def run_time_changes(trace):
    """Steps 0-5 with recorded steps [0, 1, 2, 4]: off at 2, on at 3, [4, 5] from 4."""

    def change(step):
        if step == 2:
            trace.disable()
        if step == 3:
            trace.enable()
        if step == 4:
            trace.set_steps([4, 5])

    return change


@pytest.mark.parametrize("backend", BACKENDS)
def test_op_mode_adds_no_recompile_and_no_graph_break_and_run_time_changes_add_no_compile(tmp_path, backend):
    base = Net()
    xs = inputs(6, 3, 8)
    with compile_log() as baseline:
        train_steps(copy.deepcopy(base), xs, backend=backend)

    model = copy.deepcopy(base)
    trace = guardscope.trace_activations(model, steps=[0, 1, 2, 4], output=tmp_path / "t.jsonl", mode="op")
    with compile_log() as hooked:
        per_step = train_steps(model, xs, trace, backend=backend, on_step=run_time_changes(trace), log=hooked)
    trace.close()

    assert baseline.recompiles == [] and hooked.recompiles == []
    assert hooked.graph_breaks == hooked.graph_break_count == 0
    # The forward is one graph, as without hooks. The root module's own hook
    # runs outside its forward; it is never compiled as a frame of its own
    # (it records eagerly there), so the hooked run compiles exactly as the
    # unhooked one.
    assert baseline.compile_ids == {(0, 0)} and baseline.unique_graphs == 1
    assert hooked.compile_ids == {(0, 0)} and hooked.unique_graphs == 1
    assert hooked.functions == {0: "forward"}
    assert per_step[1:] == [[]] * 5
    records = read_jsonl(tmp_path / "t.jsonl")
    assert [r["step"] for r in records[::12]] == [0, 1, 4, 5]  # 12 called modules per step
    assert len(records) == 4 * 12


@pytest.mark.parametrize("backend", BACKENDS)
def test_op_mode_without_the_root_compiles_exactly_like_the_unhooked_model(tmp_path, backend):
    base = Net()
    xs = inputs(3, 3, 8)
    with compile_log() as baseline:
        train_steps(copy.deepcopy(base), xs, backend=backend)
    model = copy.deepcopy(base)
    with guardscope.trace_activations(model, layers=".", output=tmp_path / "t.jsonl") as trace:
        assert "" not in trace.modules and len(trace.modules) == 12
        with compile_log() as hooked:
            train_steps(model, xs, trace, backend=backend)
    assert hooked.compile_ids == baseline.compile_ids == {(0, 0)}
    assert hooked.unique_graphs == baseline.unique_graphs == 1
    assert hooked.graph_break_count == 0
    assert len(read_jsonl(tmp_path / "t.jsonl")) == 3 * 11


@pytest.mark.parametrize("backend", BACKENDS)
def test_disable_mode_adds_no_recompile_and_run_time_changes_add_no_compile(tmp_path, backend):
    # Hooks on the blocks, which share one forward and see the same inputs.
    base = Net()
    xs = inputs(6, 3, 8)
    with compile_log() as baseline:
        train_steps(copy.deepcopy(base), xs, backend=backend, grad=False)
    model = copy.deepcopy(base)
    trace = guardscope.trace_activations(
        model, layers=r"^blocks\.\d+$", steps=[0, 1, 2, 4], output=tmp_path / "t.jsonl", mode="disable"
    )
    with compile_log() as hooked:
        per_step = train_steps(
            model, xs, trace, backend=backend, on_step=run_time_changes(trace), log=hooked, grad=False
        )
    trace.close()
    assert baseline.recompiles == [] and hooked.recompiles == []
    # The graph break at the hooks splits the forward: the loop over the
    # blocks runs eagerly and Block.forward is compiled on its own, once.
    assert hooked.compile_ids == {(0, 0), (1, 0)} and hooked.functions[1] == "forward"
    assert per_step[1:] == [[]] * 5
    assert [r["step"] for r in read_jsonl(tmp_path / "t.jsonl")] == [0, 0, 1, 1, 4, 4, 5, 5]


def test_disable_mode_graph_breaks_can_recompile_shared_module_code_in_the_first_step(tmp_path):
    # The limit of the torch._dynamo.disable route: its graph breaks make
    # Dynamo compile hooked modules' forwards as frames of their own, and a
    # forward shared by modules of different shapes (fc1/fc2/head are all
    # Linear) or requires_grad is recompiled for them, in the first step.
    # mode="op" has none of this (see above).
    model = Net()
    trace = guardscope.trace_activations(model, output=tmp_path / "t.jsonl", mode="disable")
    with compile_log() as log:
        per_step = train_steps(model, inputs(4, 3, 8), trace, on_step=run_time_changes(trace), log=log)
    trace.close()
    assert log.recompiles and all(cid in per_step[0] for cid in log.recompiles)
    assert per_step[1:] == [[]] * 3
    for reason in log.reasons:
        assert "size mismatch" in reason or "requires_grad mismatch" in reason, reason


def eager_reference(model, xs, layers):
    """Stats computed directly with torch (float64) from eager module outputs."""
    expected = []
    names = [n for n, _ in model.named_modules() if layers(n)]
    handles = [
        dict(model.named_modules())[name].register_forward_hook(
            lambda m, i, o, name=name: expected.append((name, o.detach().double()))
        )
        for name in names
    ]
    for x in xs:
        model(x)
    for h in handles:
        h.remove()
    return [(name, {"sum": o.sum().item(), "abs_mean": o.abs().mean().item(), "max": o.max().item()}) for name, o in expected]


@pytest.mark.parametrize("backend, rel", [("aot_eager", 1e-6), ("inductor", 1e-4)])
def test_op_mode_compiles_with_fullgraph_and_records_live_values_every_step(tmp_path, backend, rel):
    model = Net()
    xs = inputs(4, 3, 8)
    expected = eager_reference(copy.deepcopy(model), xs, lambda n: n.startswith("blocks.") and n.count(".") == 1)
    trace = guardscope.trace_activations(
        model, layers=r"^blocks\.\d+$", stats=("sum", "abs_mean", "max"), output=tmp_path / "t.jsonl"
    )
    with compile_log() as log:
        train_steps(model, xs, trace, backend=backend, fullgraph=True)
    trace.close()
    assert log.compile_ids == {(0, 0)} and log.unique_graphs == 1 and log.graph_breaks == 0

    records = read_jsonl(tmp_path / "t.jsonl")
    assert [(r["module"], r["step"]) for r in records] == [
        (f"blocks.{b}", step) for step in range(4) for b in range(2)
    ]
    for r, (name, stats) in zip(records, expected):
        assert r["module"] == name
        for stat, value in stats.items():
            assert math.isclose(r[stat], value, rel_tol=rel, abs_tol=1e-9), (r["module"], r["step"], stat)


def test_structured_outputs_are_walked_inside_a_fullgraph_compile(tmp_path):
    model = StructuredNet()
    x = torch.randn(3, 6)
    with guardscope.trace_activations(model, layers=".", output=tmp_path / "eager.jsonl"):
        model(x)
    with guardscope.trace_activations(model, layers=".", output=tmp_path / "compiled.jsonl") as trace:
        with compile_log() as log:
            train_steps(model, [x], trace, fullgraph=True)
    assert log.compile_ids == {(0, 0)} and log.graph_breaks == 0
    eager, compiled = read_jsonl(tmp_path / "eager.jsonl"), read_jsonl(tmp_path / "compiled.jsonl")
    assert [(r["module"], r["tensor"]) for r in compiled] == [(r["module"], r["tensor"]) for r in eager]
    for a, b in zip(eager, compiled):
        assert math.isclose(a["sum"], b["sum"], rel_tol=1e-6, abs_tol=1e-9)


def test_disable_mode_cannot_be_used_with_fullgraph(tmp_path):
    model = Net()
    with guardscope.trace_activations(model, layers="head", output=tmp_path / "t.jsonl", mode="disable"):
        with compile_log(), pytest.raises(torch._dynamo.exc.Unsupported):
            train_steps(model, inputs(1, 3, 8), fullgraph=True)


def test_removing_the_hooks_after_compiling_recompiles_once_and_stops_recording(tmp_path):
    # Dynamo guards on the number of hooks a module had when it was compiled.
    model = Net()
    trace = guardscope.trace_activations(model, layers=".", output=tmp_path / "t.jsonl")
    compiled = torch.compile(model, backend="aot_eager")
    with compile_log() as log:
        compiled(torch.randn(3, 8))
        trace.remove()
        compiled(torch.randn(3, 8))
        compiled(torch.randn(3, 8))
    trace.close()
    assert log.compile_ids == {(0, 0), (0, 1)}
    [reason] = log.reasons
    assert "_forward_hooks" in reason
    assert len(read_jsonl(tmp_path / "t.jsonl")) == 11
