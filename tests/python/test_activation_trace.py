"""guardscope.trace_activations in eager mode: what is recorded, how it is
encoded, and when it reaches the disk."""

import math
import os
import subprocess
import sys
import textwrap
import threading

import pytest
import torch as torch_
from _models import BlockOutput, Net, SharedNet, StructuredNet
from conftest import hook_count, read_jsonl
from torch import nn

import guardscope

ALL_STATS = ("abs_mean", "sum", "min", "max", "mean", "std")


def float64_stats(t):
    """The stats computed directly with torch, in float64."""
    x = t.detach().double()
    return {
        "abs_mean": x.abs().mean().item(),
        "sum": x.sum().item(),
        "min": x.min().item(),
        "max": x.max().item(),
        "mean": x.mean().item(),
        "std": x.std().item() if x.numel() > 1 else math.nan,
    }


def capture(model):
    """Plain hooks keeping a copy of every module output, by module name."""
    seen = {}
    handles = [
        module.register_forward_hook(lambda m, i, o, name=name: seen.setdefault(name, []).append(o.detach().clone()))
        for name, module in model.named_modules()
    ]
    return seen, handles


@pytest.mark.parametrize("mode", ["op", "disable"])
def test_records_match_stats_computed_with_torch_to_1e_6(torch, tmp_path, mode):
    model = Net(d=16, blocks=2)
    x = torch.randn(5, 7, 16)
    seen, _ = capture(model)
    trace = guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / "t.jsonl", mode=mode)
    model(x)
    trace.close()

    records = read_jsonl(tmp_path / "t.jsonl")
    assert [r["module"] for r in records] == [
        "blocks.0.ln", "blocks.0.fc1", "blocks.0.act", "blocks.0.fc2", "blocks.0",
        "blocks.1.ln", "blocks.1.fc1", "blocks.1.act", "blocks.1.fc2", "blocks.1",
        "head", "",
    ]  # fmt: skip
    for r in records:
        [out] = seen[r["module"]]
        assert list(r) == ["module", "tensor", "step", *ALL_STATS, "shape", "dtype", "call"]
        assert (r["tensor"], r["step"], r["call"]) == ("out", 0, 0)
        assert r["shape"] == list(out.shape) and r["dtype"] == "torch.float32"
        for stat, expected in float64_stats(out).items():
            assert math.isclose(r[stat], expected, rel_tol=1e-6, abs_tol=1e-12), (r["module"], stat)


def test_both_modes_record_identical_lines_in_eager(torch, tmp_path):
    model = StructuredNet()
    x = torch.randn(3, 6)
    for mode in ("op", "disable"):
        with guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / f"{mode}.jsonl", mode=mode) as t:
            for step in range(2):
                t.set_step(step)
                model(x + step)
    op_lines = (tmp_path / "op.jsonl").read_text()
    assert op_lines == (tmp_path / "disable.jsonl").read_text()
    assert len(op_lines.splitlines()) == 2 * (7 + 1 + 1 + 1)


def test_outputs_are_walked_through_named_tuples_dataclasses_dicts_and_lists(torch, tmp_path):
    model = StructuredNet()
    x = torch.randn(3, 6)
    outputs = []
    model.split.register_forward_hook(lambda m, i, o: outputs.append(o))
    with guardscope.trace_activations(model, layers=r"^split$", stats=ALL_STATS, output=tmp_path / "t.jsonl") as t:
        model(x)
        assert t.modules == ["split"]
    pair, block, extra, nested = outputs[0]
    expected = {
        "out[0].hidden": pair.hidden,
        "out[0].gate": pair.gate,
        "out[1].hidden_states": block.hidden_states,
        "out[1].attn_logits": block.attn_logits,
        "out[2]['scale']": extra["scale"],
        "out[3][0]": nested[0],
        "out[3][1][0]": nested[1][0],  # a transposed, non-contiguous view
    }
    records = read_jsonl(tmp_path / "t.jsonl")
    assert [r["tensor"] for r in records] == list(expected)
    for r in records:
        tensor = expected[r["tensor"]]
        assert r["shape"] == list(tensor.shape)
        for stat, value in float64_stats(tensor).items():
            if stat == "std" and tensor.numel() == 1:
                assert r[stat] == "nan"
            else:
                assert math.isclose(r[stat], value, rel_tol=1e-6, abs_tol=1e-12), (r["tensor"], stat)


class Odd(nn.Module):
    def forward(self, x):
        nan = x.clone()
        nan[0, 0] = float("nan")
        inf = torch_.full((3,), float("inf"))
        mixed = torch_.tensor([float("inf"), float("-inf"), 1.0])
        return nan, inf, mixed, x[:0], x[0, 0], x.to(torch_.bfloat16), torch_.arange(5), x > 0


def test_nan_inf_empty_and_odd_dtypes_give_strict_json_with_the_documented_encoding(torch, tmp_path):
    x = torch.tensor([[1.0, -2.0], [3.0, -4.0]])
    model = Odd()
    with guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / "t.jsonl"):
        model(x)
    r = {rec["tensor"]: rec for rec in read_jsonl(tmp_path / "t.jsonl")}
    nan, inf, mixed, empty, scalar, bf16, ints, bools = (r[f"out[{i}]"] for i in range(8))
    assert all(nan[s] == "nan" for s in ALL_STATS)
    assert (inf["sum"], inf["abs_mean"], inf["min"], inf["max"], inf["std"]) == ("inf", "inf", "inf", "inf", "nan")
    assert (mixed["sum"], mixed["min"], mixed["max"]) == ("nan", "-inf", "inf")
    assert (empty["sum"], empty["mean"], empty["abs_mean"], empty["std"]) == (0.0, "nan", "nan", "nan")
    assert (empty["min"], empty["max"], empty["shape"]) == (None, None, [0, 2])
    assert (scalar["sum"], scalar["std"], scalar["shape"]) == (1.0, "nan", [])
    assert (bf16["dtype"], bf16["sum"], bf16["min"]) == ("torch.bfloat16", -2.0, -4.0)
    assert (ints["dtype"], ints["sum"], ints["max"]) == ("torch.int64", 10.0, 4.0)
    assert (bools["dtype"], bools["sum"], bools["mean"]) == ("torch.bool", 2.0, 0.5)
    assert float(nan["sum"]) != float(nan["sum"]) and float(inf["max"]) == math.inf  # Python reads them back


class Sparse(nn.Module):
    def forward(self, x):
        return x.to_sparse()


def test_a_stat_that_fails_records_an_error_and_the_forward_is_unaffected(torch, tmp_path):
    model = Sparse()
    x = torch.tensor([[0.0, 2.0], [-3.0, 0.0]])
    with guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / "t.jsonl"):
        out = model(x)
    assert torch.equal(out.to_dense(), x)
    [r] = read_jsonl(tmp_path / "t.jsonl")
    assert (r["sum"], r["abs_mean"], r["mean"]) == (-1.0, 1.25, -0.25)
    for stat in ("min", "max", "std"):  # not implemented for sparse tensors
        assert r[stat].startswith("<error: NotImplementedError: ") and r[stat].endswith(">"), r[stat]
    assert (r["shape"], r["dtype"]) == ([2, 2], "torch.float32")


class SparseAndDense(nn.Module):
    def forward(self, x):
        return x.to_sparse(), x * 2, torch_.empty(2, device="meta")


def test_tensors_off_the_fast_route_are_summarized_together_and_recorded_in_order(torch, tmp_path):
    # A sparse tensor takes the route of non-CPU devices (torch reductions on
    # the tensor's device, one transfer); a meta tensor has no values at all.
    model = SparseAndDense()
    x = torch.tensor([[0.0, 2.0], [-3.0, 0.0]])
    with guardscope.trace_activations(model, stats=("sum", "abs_mean", "mean"), output=tmp_path / "t.jsonl"):
        model(x)
    sparse, dense, meta = read_jsonl(tmp_path / "t.jsonl")
    assert [r["tensor"] for r in (sparse, dense, meta)] == ["out[0]", "out[1]", "out[2]"]
    assert (sparse["sum"], sparse["abs_mean"], sparse["mean"]) == (-1.0, 1.25, -0.25)
    assert (dense["sum"], dense["abs_mean"], dense["mean"]) == (-2.0, 2.5, -0.5)
    assert all(meta[s].startswith("<error: ") for s in ("sum", "abs_mean", "mean"))
    assert (meta["shape"], meta["dtype"]) == ([2], "torch.float32")


class Broken(nn.Module):
    """Returns a dataclass whose field was deleted: reading it raises."""

    def forward(self, x):
        out = BlockOutput(hidden_states=x * 2, attn_logits=x)
        del out.attn_logits
        return out


@pytest.mark.parametrize("mode", ["op", "disable"])
def test_an_output_that_cannot_be_walked_is_logged_once_and_never_raises(torch, tmp_path, mode, caplog):
    model = Broken()
    x = torch.ones(2)
    with guardscope.trace_activations(model, output=tmp_path / "t.jsonl", mode=mode):
        outs = [model(x), model(x)]
    assert all(torch.equal(out.hidden_states, x * 2) for out in outs)
    assert read_jsonl(tmp_path / "t.jsonl") == []
    [message] = [r.getMessage() for r in caplog.records if r.name == "guardscope"]
    assert message.startswith("activation trace: walking a module output failed (AttributeError")


def test_calls_number_each_call_of_a_module_within_a_step(torch, tmp_path):
    model = SharedNet()
    with guardscope.trace_activations(model, layers="shared", output=tmp_path / "t.jsonl") as t:
        model(torch.randn(2, 4))
        model(torch.randn(2, 4))
        t.set_step(1)
        model(torch.randn(2, 4))
    assert [(r["step"], r["call"]) for r in read_jsonl(tmp_path / "t.jsonl")] == [
        (0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)
    ]  # fmt: skip


def test_step_filter_enable_and_disable_decide_what_is_recorded(torch, tmp_path):
    model = Net()
    x = torch.randn(2, 8)
    trace = guardscope.trace_activations(model, layers=r"^head$", steps=[1, 3, 4], output=tmp_path / "t.jsonl")
    assert trace.steps == [1, 3, 4]
    for step in range(6):
        trace.set_step(step)
        if step == 3:
            trace.disable()
        if step == 4:
            trace.enable()
            trace.set_steps([4, 5])
        model(x)
    trace.close()
    assert [r["step"] for r in read_jsonl(tmp_path / "t.jsonl")] == [1, 4, 5]
    assert trace.records == 3


def test_records_of_a_step_are_on_disk_when_the_next_step_starts(torch, tmp_path):
    model = Net()
    trace = guardscope.trace_activations(model, output=tmp_path / "t.jsonl")
    model(torch.randn(2, 8))
    trace.set_step(1)
    assert len(read_jsonl(tmp_path / "t.jsonl")) == 12  # 13 modules; the ModuleList is never called
    model(torch.randn(2, 8))
    trace.close()
    assert len(read_jsonl(tmp_path / "t.jsonl")) == 24


CHILD = textwrap.dedent(
    """
    import os, sys, torch, guardscope
    from torch import nn
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
    trace = guardscope.trace_activations(model, output=sys.argv[1])
    for step in range(3):
        trace.set_step(step)
        model(torch.randn(2, 4))
    if sys.argv[2] == "crash":
        os._exit(1)  # no atexit, no flush: like a segfault or a kill
    """
)


@pytest.mark.parametrize("ending, steps_on_disk", [("crash", {0, 1}), ("exit", {0, 1, 2})])
def test_a_crash_loses_at_most_the_current_step_and_a_normal_exit_loses_nothing(tmp_path, ending, steps_on_disk):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    out = tmp_path / "t.jsonl"
    proc = subprocess.run([sys.executable, str(script), str(out), ending], capture_output=True, text=True, timeout=300)
    assert proc.returncode == (1 if ending == "crash" else 0), proc.stderr
    records = read_jsonl(out)
    assert {r["step"] for r in records} == steps_on_disk
    assert len(records) == 3 * len(steps_on_disk)


def test_remove_takes_off_every_hook_and_close_ends_recording(torch, tmp_path):
    model = Net()
    model.head.register_forward_hook(lambda *a: None)  # the user's own hook stays
    trace = guardscope.trace_activations(model, output=tmp_path / "t.jsonl")
    assert hook_count(model) == 13 + 1
    model(torch.randn(2, 8))
    trace.remove()
    assert hook_count(model) == 1
    model(torch.randn(2, 8))
    trace.close()
    assert len(read_jsonl(tmp_path / "t.jsonl")) == 12

    with guardscope.trace_activations(model, output=tmp_path / "u.jsonl") as t:
        assert hook_count(model) == 14
    assert hook_count(model) == 1 and t.records == 0


def test_an_unwritable_output_raises_at_attach_and_hooks_nothing(torch, tmp_path):
    model = Net()
    (tmp_path / "file").write_text("")
    with pytest.raises(OSError, match="file"):
        guardscope.trace_activations(model, output=tmp_path / "file" / "t.jsonl")
    with pytest.raises(IsADirectoryError):
        guardscope.trace_activations(model, output=tmp_path)
    assert hook_count(model) == 0


def test_output_gets_pid_and_rank_and_its_parent_is_created(torch, tmp_path, monkeypatch):
    monkeypatch.setenv("RANK", "3")
    model = Net()
    with guardscope.trace_activations(model, layers="head", output=tmp_path / "r<rank>" / "t_<pid>.jsonl") as t:
        model(torch.randn(2, 8))
    path = tmp_path / "r3" / f"t_{os.getpid()}.jsonl"
    assert t.path == str(path)
    assert len(read_jsonl(path)) == 1


def test_layers_is_a_regex_searched_in_module_names(torch, tmp_path):
    model = Net(blocks=12)
    t = guardscope.trace_activations(model, layers=r"blocks\.1", output=tmp_path / "t.jsonl")
    assert t.modules[:2] == ["blocks.1", "blocks.1.ln"] and "blocks.10" in t.modules and "blocks.0" not in t.modules
    t.close()
    t = guardscope.trace_activations(model, layers=r"^blocks\.1$", output=tmp_path / "t.jsonl")
    assert t.modules == ["blocks.1"]
    t.close()
    assert len(guardscope.trace_activations(model, output=tmp_path / "t.jsonl").modules) == 3 + 5 * 12


def test_bad_stats_and_modes_raise_before_anything_is_hooked(torch, tmp_path):
    model = Net()
    with pytest.raises(ValueError, match='unknown activation stat "median"'):
        guardscope.trace_activations(model, stats=("sum", "median"), output=tmp_path / "t.jsonl")
    with pytest.raises(ValueError, match="mode must be one of"):
        guardscope.trace_activations(model, mode="fast", output=tmp_path / "t.jsonl")
    assert hook_count(model) == 0


def test_threads_recording_at_once_write_whole_lines(torch, tmp_path):
    model = Net(d=32)
    trace = guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / "t.jsonl")

    def work():
        for _ in range(20):
            model(torch.randn(16, 32))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    trace.close()
    records = read_jsonl(tmp_path / "t.jsonl")
    assert len(records) == 4 * 20 * 12
    assert sorted(r["call"] for r in records if r["module"] == "head") == list(range(80))


def test_two_traces_on_one_path_share_the_file(torch, tmp_path):
    a, b = Net(), Net()
    ta = guardscope.trace_activations(a, layers="head", output=tmp_path / "t.jsonl")
    tb = guardscope.trace_activations(b, layers="head", output=tmp_path / "t.jsonl")
    a(torch.randn(2, 8))
    b(torch.randn(2, 8))
    ta.close()
    tb.close()
    assert len(read_jsonl(tmp_path / "t.jsonl")) == 2


def test_import_guardscope_does_not_import_torch():
    code = "import sys, guardscope; assert 'torch' not in sys.modules; print(guardscope.__version__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == guardscope.__version__


def test_remove_recompiles_once_as_hooks_changed_and_disable_does_not(torch, tmp_path):
    # What docs/python.md promises about taking hooks off a compiled model,
    # with the cause guardscope gives the recompile.
    torch._dynamo.reset()
    model = Net()
    compiled = torch.compile(model, backend="eager")
    x = torch.randn(2, 8)
    trace = guardscope.trace_activations(model, output=str(tmp_path / "acts.jsonl"))
    compiled(x)
    with guardscope.compile_events() as seen:
        trace.disable()
        compiled(x)
        trace.enable()
        compiled(x)
    assert seen.recompiles == [], "disable() and enable() keep the hooks: no recompile"
    with guardscope.compile_events() as seen:
        trace.remove()
        compiled(x)
        compiled(x)
    assert len(seen.recompiles) == 1, seen.recompiles
    cause = seen.recompiles[0]["cause"]
    assert cause is not None and cause["category"] == "hooks_changed", cause
    assert cause["severity"] == "expected", cause
