"""Outputs the hooks cannot reduce, a trace file deleted mid-run, and CUDA
graphs (torch.compile mode="reduce-overhead"): the hooks never break the
user's compile, never raise into forward, and say once what they cannot do.

Real torch and real torch.compile on CPU throughout. Under reduce-overhead on
CPU inductor skips the CUDA graphs themselves, but the request is what the
hooks see when they are traced (the same on a GPU), so the refusal of op
mode is tested here; what a GPU replay records is not.
"""

import logging
import math
import os

import pytest
import torch
from _models import Net
from conftest import compile_log, read_jsonl
from torch import nn

import guardscope

ALL_STATS = ("abs_mean", "sum", "min", "max", "mean", "std")


def guardscope_warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "guardscope" and r.levelno >= logging.WARNING]


class UnprintableKey:
    """A dict key whose repr raises (user code the walk must survive)."""

    def __repr__(self):
        raise RuntimeError("this key has no repr")


KEY = UnprintableKey()


class Odd(nn.Module):
    """A complex tensor, a tensor without values, and a dict keyed by an
    object whose repr raises, next to an ordinary tensor."""

    def forward(self, x):
        return torch.complex(x, -2 * x), torch.empty(3, device="meta"), {KEY: x * 3, "plain": x + 1}


class OddWithSparse(Odd):
    def forward(self, x):
        return (*super().forward(x), x.to_sparse())


class Wrapped(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.inner = inner

    def forward(self, x):
        complex_out, meta, mapping = self.inner(self.lin(x))[:3]
        return complex_out.abs() + mapping[KEY] + mapping["plain"], meta


def complex_stats(z):
    """What torch says each stat of a complex tensor is."""
    return {"abs_mean": z.abs().double().mean().item(), "std": z.to(torch.complex128).std().item()}


@pytest.mark.parametrize("mode", ["op", "disable"])
def test_eager_records_complex_with_torch_semantics_and_survives_meta_sparse_and_odd_keys(tmp_path, mode, recwarn):
    model = OddWithSparse()
    x = torch.tensor([[1.0, -2.0], [3.0, -4.0]])
    with guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / "t.jsonl", mode=mode):
        out = model(x)
    assert torch.equal(out[0], torch.complex(x, -2 * x)) and out[1].is_meta
    records = {r["tensor"]: r for r in read_jsonl(tmp_path / "t.jsonl")}
    assert list(records) == ["out[0]", "out[1]", "out[2][<UnprintableKey>]", "out[2]['plain']", "out[3]"]
    z = records["out[0]"]
    expected = complex_stats(torch.complex(x, -2 * x))
    assert math.isclose(z["abs_mean"], expected["abs_mean"], rel_tol=1e-12), z  # mean of |z|, not of Re z
    assert math.isclose(z["std"], expected["std"], rel_tol=1e-12), z
    for stat in ("sum", "mean", "min", "max"):  # complex, or refused by torch: no number
        assert z[stat].startswith("<error: ") and z[stat].endswith(">"), (stat, z[stat])
    assert (z["shape"], z["dtype"]) == ([2, 2], "torch.complex64")
    meta = records["out[1]"]
    assert all(meta[s].startswith("<error: ") for s in ALL_STATS) and meta["shape"] == [3]
    assert records["out[2][<UnprintableKey>]"]["sum"] == float((x * 3).sum())
    assert records["out[2]['plain']"]["sum"] == float((x + 1).sum())
    assert records["out[3]"]["sum"] == float(x.sum())  # sparse, through torch on its layout
    assert not [w for w in recwarn if "complex" in str(w.message).lower()], "no silent cast to the real part"


COMPILES = [
    ("op", "aot_eager", False, None),
    ("op", "aot_eager", True, None),
    ("op", "inductor", False, None),
    ("op", "inductor", True, None),
    ("op", "inductor", True, True),
    # mode="disable" breaks the graph at each hook by design: no fullgraph.
    ("disable", "aot_eager", False, None),
    ("disable", "inductor", False, None),
    ("disable", "inductor", False, True),
]


@pytest.mark.parametrize(("mode", "backend", "fullgraph", "dynamic"), COMPILES)
def test_unreducible_outputs_never_break_the_compile(tmp_path, caplog, mode, backend, fullgraph, dynamic):
    model = Wrapped(Odd())
    xs = [torch.randn(2, 2) for _ in range(3)]
    expected = [model(x)[0] for x in xs]
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        with guardscope.trace_activations(
            model, layers="inner", stats=ALL_STATS, output=tmp_path / "t.jsonl", mode=mode
        ) as trace:
            with compile_log() as log:
                compiled = torch.compile(model, backend=backend, fullgraph=fullgraph, dynamic=dynamic)
                for step, x in enumerate(xs):
                    trace.set_step(step)
                    out = compiled(x)
                    torch.testing.assert_close(out[0], expected[step])
    assert log.recompiles == []
    if mode == "op":
        assert log.graph_break_count == 0
    records = read_jsonl(tmp_path / "t.jsonl")
    names = ["out[0]", "out[2][<UnprintableKey>]", "out[2]['plain']"]
    if mode == "disable":  # eager hooks: the meta tensor is recorded, with errors for values
        names.insert(1, "out[1]")
    assert [r["tensor"] for r in records] == names * len(xs)
    for step, x in enumerate(xs):
        z = next(r for r in records if r["step"] == step and r["tensor"] == "out[0]")
        h = model.lin(x).detach()
        expected_z = complex_stats(torch.complex(h, -2 * h))
        assert math.isclose(z["abs_mean"], expected_z["abs_mean"], rel_tol=1e-5), z
        assert math.isclose(z["std"], expected_z["std"], rel_tol=1e-5), z
        assert all(z[s].startswith("<error: ") for s in ("sum", "mean", "min", "max")), z
    warnings = guardscope_warnings(caplog)
    if mode == "op":
        [warning] = warnings  # one per trace, however often the hook is traced
        assert "meta-device output tensors are not recorded inside compiled graphs" in warning, warning
    else:
        assert warnings == []


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


class Steps(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


@pytest.mark.parametrize(
    "compile_kwargs",
    [{"mode": "reduce-overhead"}, {"options": {"triton.cudagraphs": True}}],
    ids=["reduce-overhead", "triton.cudagraphs"],
)
def test_cuda_graphs_refuse_op_mode_with_one_warning_and_every_step_is_recorded(tmp_path, caplog, compile_kwargs):
    model = Steps()
    xs = [torch.randn(3, 4) for _ in range(4)]
    with guardscope.trace_activations(model, layers=".", stats=ALL_STATS, output=tmp_path / "eager.jsonl") as t:
        expected = []
        for step, x in enumerate(xs):
            t.set_step(step)
            expected.append(model(x))
    logs = {}
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        for mode in ("disable", "op"):
            caplog.clear()
            output = tmp_path / f"{mode}.jsonl"
            with guardscope.trace_activations(model, layers=".", stats=ALL_STATS, output=output, mode=mode) as trace:
                with compile_log() as logs[mode]:
                    compiled = torch.compile(model, **compile_kwargs)
                    for step, x in enumerate(xs):
                        trace.set_step(step)
                        torch.testing.assert_close(compiled(x), expected[step])
    [warning] = guardscope_warnings(caplog)
    assert "cannot record under CUDA graphs" in warning and "mode='disable'" in warning, warning
    # Op mode falls back to what mode="disable" does, and costs no compile more
    # (disable mode's one recompile here is Linear.forward, a frame of its own
    # between graph breaks, called with and without requires_grad inputs).
    op, disable = logs["op"], logs["disable"]
    assert (op.compile_ids, op.graph_break_count) == (disable.compile_ids, disable.graph_break_count)
    assert op.graph_break_count > 0, "recorded through graph breaks"
    eager, compiled_records = read_jsonl(tmp_path / "eager.jsonl"), read_jsonl(tmp_path / "op.jsonl")
    assert [(r["step"], r["module"]) for r in compiled_records] == [(r["step"], r["module"]) for r in eager]
    assert len(eager) == 2 * len(xs), "every step recorded"
    for e, c in zip(eager, compiled_records):
        for stat in ALL_STATS:
            assert math.isclose(c[stat], e[stat], rel_tol=1e-5, abs_tol=1e-6), (stat, e, c)


def test_cuda_graphs_with_fullgraph_never_break_the_compile_and_say_nothing_is_recorded_inside(tmp_path, caplog):
    model = Steps()
    xs = [torch.randn(3, 4) for _ in range(3)]
    expected = [model(x) for x in xs]
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        with guardscope.trace_activations(model, output=tmp_path / "t.jsonl", mode="op") as trace:
            with compile_log() as log:
                compiled = torch.compile(model, mode="reduce-overhead", fullgraph=True)
                for step, x in enumerate(xs):
                    trace.set_step(step)
                    torch.testing.assert_close(compiled(x), expected[step])
    [warning] = guardscope_warnings(caplog)
    assert "cannot record under CUDA graphs" in warning and "fullgraph=True" in warning, warning
    assert log.recompiles == [] and log.graph_break_count == 0
    # Inside the graph (a, b) nothing is recorded; the root's hook runs
    # after the compiled forward, eagerly, and records every step.
    records = read_jsonl(tmp_path / "t.jsonl")
    assert [(r["step"], r["module"]) for r in records] == [(step, "") for step in range(len(xs))]
