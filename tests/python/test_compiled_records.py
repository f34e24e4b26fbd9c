"""mode="op" under torch.compile reduces module outputs inside the graph and
hands the op only the reduced values: the records must be those of eager mode,
for odd values, dtypes and dynamic shapes, and outputs the graph cannot
reduce must still be recorded (through the full-tensor op)."""

import math

import pytest
import torch
from _models import Net
from conftest import compile_log, read_jsonl
from torch import nn

import guardscope

ALL_STATS = ("abs_mean", "sum", "min", "max", "mean", "std")
BACKENDS = ["aot_eager", "inductor"]


class Values(nn.Module):
    """Outputs whose stats are exact in any backend (no float arithmetic a
    compiler could reorder), covering NaN, infinities, empty, one-element,
    non-contiguous, low-precision, integer and boolean tensors, and a large
    mean with a small spread (where a naive variance cancels)."""

    def forward(self, x):
        nan = x.clone()
        nan[0, 0] = float("nan")
        return (
            x,
            nan,
            torch.full((3,), float("inf")),
            torch.tensor([float("inf"), float("-inf"), 1.0]),
            x[:0],
            x[0, :1],
            x[0, 0],
            x.t(),
            x.to(torch.bfloat16),
            torch.arange(5),
            x > 0,
            x + 10000.0,
            {"scale": x[1]},
        )


class Wrapped(nn.Module):
    """Hooking only submodules (layers=".") keeps the compiled frames those
    of the model; a hook on the compiled module itself is a frame of its own."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return self.inner(x)


def graph_ops(log):
    """A backend that runs the Dynamo graph as is, noting guardscope's ops."""

    def backend(gm, example_inputs):
        log.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function" and "guardscope" in str(n.target))
        return gm.forward

    return backend


def assert_same_records(eager, compiled, rel=1e-6):
    assert len(compiled) == len(eager)
    for e, c in zip(eager, compiled):
        assert list(c) == list(e), (e, c)
        for key, value in e.items():
            if isinstance(value, float) and isinstance(c[key], float):
                assert math.isclose(c[key], value, rel_tol=rel, abs_tol=1e-12), (e["tensor"], key, value, c[key])
            else:
                assert c[key] == value, (e["tensor"], key, value, c[key])


def test_the_graph_holds_reductions_and_the_stats_op_not_the_tensors(tmp_path):
    model = Wrapped(Values())
    x = torch.tensor([[1.5, -2.0, 0.25], [3.0, -4.0, 8.0]])
    ops = []
    with guardscope.trace_activations(model, layers=".", stats=ALL_STATS, output=tmp_path / "t.jsonl"):
        torch.compile(model, backend=graph_ops(ops), fullgraph=True)(x)
    assert ops == ["guardscope.record_stats"]
    torch._dynamo.reset()


@pytest.mark.parametrize("backend", BACKENDS)
def test_compiled_records_equal_eager_records_for_odd_values_and_dtypes(tmp_path, backend):
    model = Wrapped(Values())
    x = torch.tensor([[1.5, -2.0, 0.25], [3.0, -4.0, 8.0]])
    with guardscope.trace_activations(model, layers=".", stats=ALL_STATS, output=tmp_path / "eager.jsonl"):
        model(x)
    trace = guardscope.trace_activations(model, layers=".", stats=ALL_STATS, output=tmp_path / "compiled.jsonl")
    with trace:
        with compile_log() as log:
            compiled = torch.compile(model, backend=backend, fullgraph=True)
            for step in range(2):
                trace.set_step(step)
                compiled(x)
    assert log.compile_ids == {(0, 0)} and log.graph_breaks == 0
    eager, records = read_jsonl(tmp_path / "eager.jsonl"), read_jsonl(tmp_path / "compiled.jsonl")
    assert len(eager) == 13
    assert_same_records(eager, [r for r in records if r["step"] == 0])
    assert_same_records([{**r, "step": 1} for r in eager], [r for r in records if r["step"] == 1])
    by_tensor = {r["tensor"]: r for r in records}
    assert by_tensor["out[4]"]["min"] is None and by_tensor["out[1]"]["sum"] == "nan"  # the cases are really there
    assert by_tensor["out[11]"]["std"] > 0


def float64_stats(t):
    x = t.detach().double()
    return {"sum": x.sum().item(), "abs_mean": x.abs().mean().item(), "max": x.max().item(), "std": x.std().item()}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dynamic", [True, None])
def test_dynamic_shapes_add_no_recompile_and_record_the_values_of_each_call(tmp_path, backend, dynamic):
    # dynamic=True: symbolic sizes from the start. None: automatic dynamic, a
    # recompile with symbolic sizes at the first shape change, hooks or not.
    gen = torch.Generator().manual_seed(1)
    xs = [torch.randn(n, 5, 8, generator=gen) for n in (3, 4, 6, 3)]
    base = Net()
    with compile_log() as baseline, torch.no_grad():
        plain = Net()
        plain.load_state_dict(base.state_dict())
        compiled = torch.compile(plain, backend=backend, dynamic=dynamic)
        for x in xs:
            compiled(x)
    model = Net()
    model.load_state_dict(base.state_dict())
    stats = ("sum", "abs_mean", "max", "std")
    trace = guardscope.trace_activations(model, layers=".", stats=stats, output=tmp_path / "t.jsonl")
    outputs = []
    with compile_log() as hooked, torch.no_grad():
        compiled = torch.compile(model, backend=backend, dynamic=dynamic, fullgraph=True)
        for step, x in enumerate(xs):
            trace.set_step(step)
            outputs.append(compiled(x))
    trace.close()
    assert hooked.compile_ids == baseline.compile_ids
    assert hooked.graph_break_count == 0

    records = read_jsonl(tmp_path / "t.jsonl")
    assert len(records) == 4 * 11
    for step, (x, out) in enumerate(zip(xs, outputs)):
        mine = [r for r in records if r["step"] == step]
        assert {tuple(r["shape"][:1]) for r in mine} == {(x.shape[0],)}
        # The model's own output is the head's: the recorded values are
        # those of the tensor the compiled graph returned, in any backend.
        [head] = [r for r in mine if r["module"] == "head"]
        assert head["shape"] == list(out.shape)
        for stat, value in float64_stats(out).items():
            assert math.isclose(head[stat], value, rel_tol=1e-6, abs_tol=1e-12), (step, stat)
    if backend == "aot_eager":  # eager kernels: every module's values are eager's
        eager_path = tmp_path / "eager.jsonl"
        with guardscope.trace_activations(model, layers=".", stats=stats, output=eager_path) as t:
            for step, x in enumerate(xs):
                t.set_step(step)
                model(x)
        assert_same_records(read_jsonl(eager_path), records)


class Unreducible(nn.Module):
    """A data-dependent size (the graph cannot know whether it is empty) and
    a complex tensor (no real reduction)."""

    def forward(self, x):
        return x[x > 0], torch.complex(x, -x), x * 2


@pytest.mark.filterwarnings("ignore:Casting complex values to real")
def test_outputs_the_graph_cannot_reduce_are_recorded_from_the_whole_tensors(tmp_path):
    model = Wrapped(Unreducible())
    x = torch.tensor([[1.0, -2.0], [3.0, -4.0]])
    with guardscope.trace_activations(model, layers=".", stats=ALL_STATS, output=tmp_path / "eager.jsonl"):
        model(x)
    ops = []
    with guardscope.trace_activations(model, layers=".", stats=ALL_STATS, output=tmp_path / "compiled.jsonl"):
        with compile_log() as log, torch._dynamo.config.patch(capture_dynamic_output_shape_ops=True):
            torch.compile(model, backend=graph_ops(ops), fullgraph=True)(x)
    assert log.graph_breaks == 0
    assert ops == ["guardscope.record_activations"]
    assert_same_records(read_jsonl(tmp_path / "eager.jsonl"), read_jsonl(tmp_path / "compiled.jsonl"))
