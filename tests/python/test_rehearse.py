"""guardscope.to_meta and guardscope.rehearse with real torch.compile.

The scenario pairs run the same model and loop (_rehearse_scenarios.py)
twice: for real on CPU in a fresh process under TORCH_TRACE, and rehearsed
on a meta copy in this process; the predicted recompiles must be the real
ones. The real runs use backend="aot_eager" (AOT autograd traces forward and
backward as Inductor's front end does, without its code generation, which
takes minutes per compile on this 2-core machine); the rehearsal swaps every
backend for "eager" either way.
"""

import collections
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch import nn

import guardscope

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _rehearse_scenarios as scenarios  # noqa: E402

Point = collections.namedtuple("Point", "x y")


@dataclasses.dataclass
class Batch:
    ids: torch.Tensor
    mask: torch.Tensor
    note: str = "kept"


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 6)
        self.head = nn.Linear(6, 10, bias=False)
        self.head.weight = self.embed.weight
        self.register_buffer("scale", torch.ones(6, 3).t())
        self.steps = 3
        self.cache = torch.arange(4.0)

    def forward(self, ids):
        return self.head(self.embed(ids))


# --- to_meta ------------------------------------------------------------------


def test_to_meta_copies_a_module_onto_meta_keeping_structure_ties_buffers_and_hooks():
    model = Tied()
    calls = []
    model.head.register_forward_hook(lambda m, i, o: calls.append(o.shape))
    before = {k: v.clone() for k, v in model.state_dict().items()}

    meta = guardscope.to_meta(model)

    assert type(meta) is Tied and meta is not model
    assert [n for n, _ in meta.named_modules()] == [n for n, _ in model.named_modules()]
    assert all(p.device.type == "meta" and isinstance(p, nn.Parameter) for p in meta.parameters())
    # Tied weights stay tied: one Parameter, as in the original.
    assert meta.head.weight is meta.embed.weight
    assert len(list(meta.parameters())) == len(list(model.parameters())) == 1
    assert meta.scale.device.type == "meta" and meta.scale.stride() == model.scale.stride() == (1, 3)
    assert meta.cache.device.type == "meta" and meta.steps == 3
    assert len(meta.head._forward_hooks) == 1
    meta(torch.zeros(2, 5, dtype=torch.long, device="meta"))
    assert calls == [torch.Size([2, 5, 10])]
    # The original is untouched.
    assert all(p.device.type == "cpu" for p in model.parameters())
    assert model.head.weight is model.embed.weight
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())


def test_to_meta_copies_tensors_in_nested_containers_with_shapes_strides_dtypes_and_grad():
    t = torch.randn(3, 4).t()
    leaf = torch.ones(2, dtype=torch.float16, requires_grad=True)
    batch = Batch(ids=torch.zeros(2, 7, dtype=torch.long), mask=torch.ones(2, 7, dtype=torch.bool))
    obj = {"a": [t, (1, leaf)], "p": Point(t, "y"), "b": batch}

    meta = guardscope.to_meta(obj)

    assert meta["a"][0].device.type == "meta" and meta["a"][0].shape == (4, 3) and meta["a"][0].stride() == (1, 4)
    assert meta["a"][1][0] == 1 and meta["a"][1][1].dtype == torch.float16 and meta["a"][1][1].requires_grad
    # The same tensor twice is one meta tensor twice.
    assert type(meta["p"]) is Point and meta["p"].x is meta["a"][0] and meta["p"].y == "y"
    assert type(meta["b"]) is Batch and meta["b"].ids.dtype == torch.long and meta["b"].mask.device.type == "meta"
    assert meta["b"].note == "kept"
    assert obj["a"][0] is t and batch.ids.device.type == "cpu" and t.device.type == "cpu"


# --- rehearse: scenario pairs ---------------------------------------------------


def real_run(name, tmp_path, settings=None):
    trace = tmp_path / f"real-{name}-{len(list(tmp_path.iterdir()))}"
    env = dict(os.environ, TORCH_TRACE=str(trace))
    proc = subprocess.run(
        [sys.executable, str(HERE / "_rehearse_scenarios.py"), name, "aot_eager", json.dumps(settings or {})],
        env=env, cwd=HERE, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return guardscope.load(trace)


def rehearsed(name):
    make, loop, options = scenarios.SCENARIOS[name]
    torch.manual_seed(0)
    meta = guardscope.to_meta(make())
    compiled = torch.compile(meta, **options)
    return guardscope.rehearse(lambda: loop(meta, compiled, "meta"))


def compiles(run):
    return [(f.function, c.compile_id) for f in run.frames for c in f.compiles]


def recompiles(run):
    return [(r.function, r.compile_id, r.cause and r.cause.category, r.severity) for r in run.recompiles]


@pytest.mark.parametrize("name", ["mlp", "gpt2"])
def test_a_rehearsal_on_meta_predicts_the_recompiles_of_the_real_run(name, tmp_path):
    real = real_run(name, tmp_path)
    predicted = rehearsed(name)

    assert predicted.unseen == ()
    assert recompiles(real), "the scenario must recompile for the comparison to mean anything"
    assert recompiles(predicted) == recompiles(real)
    assert compiles(predicted) == compiles(real)
    assert [r.cause.culprit for r in predicted.recompiles] == [r.cause.culprit for r in real.recompiles]
    assert predicted.totals.graph_breaks == real.totals.graph_breaks
    # The gate reads a rehearsal as it reads a run.
    assert predicted.check().exit_code == real.check().exit_code == 1
    assert predicted.check(allow=[r.cause.category for r in predicted.recompiles]).passed


def test_the_mlp_rehearsal_names_the_odd_last_batch_and_the_eval_switch():
    predicted = rehearsed("mlp")
    assert recompiles(predicted) == [
        ("forward", "0/1", "shape_input", "expected"),
        ("forward", "0/2", "torch_global_state", "expected"),
    ]
    assert "predicted" in repr(predicted) and predicted.level == "meta rehearsal"
    # In Jupyter, the findings come under a line that says they are predicted.
    page = predicted._repr_html_()
    assert page.index("<b>Predicted</b> by a meta rehearsal") < page.index("MLP.forward")


def limits(run):
    return [c.cache_limit for f in run.frames for c in f.compiles]


def test_a_frame_past_the_recompile_limit_is_predicted_with_a_verified_and_an_unverified_fix(tmp_path):
    real = real_run("limit", tmp_path)
    predicted = rehearsed("limit")

    assert recompiles(predicted) == recompiles(real)
    assert limits(predicted) == limits(real) == [False] * 8 + [True]
    # The refused compile is a prediction (the frame runs eagerly), not unseen.
    assert predicted.unseen == ()
    [raised] = [f for f in predicted.verified_fixes if f.verified]
    assert raised.compile_id == "0/8" and raised.settings == {"recompile_limit": 64} and raised.works
    # Branching on a string argument needs a code edit: advice, once per cause.
    [advice] = [f for f in predicted.verified_fixes if not f.verified]
    assert (advice.compile_id, advice.category, advice.works) == ("0/1", "constant_value", None)
    assert "unverified" in str(advice)
    # The verified fix, applied to the real run, does what the replay said.
    fixed = real_run("limit", tmp_path, raised.settings)
    assert not any(limits(fixed)) and fixed.totals.recompiles == 9


def test_the_verified_fix_for_the_odd_last_batch_removes_it_from_the_real_run(tmp_path):
    predicted = rehearsed("mlp")
    fix, mark = predicted.verified_fixes
    assert (fix.compile_id, fix.category, fix.verified, fix.works) == ("0/1", "shape_input", True, True)
    assert fix.settings == {"assume_static_by_default": False}
    # Marking the batch dim before the first call removes it too.
    assert (mark.verified, mark.works, mark.mark.argument, mark.mark.dim) == (True, True, "x", 0)

    fixed = real_run("mlp", tmp_path, fix.settings)
    assert [(r.compile_id, r.cause.category) for r in fixed.recompiles] == [("0/1", "torch_global_state")]


def test_mark_dynamic_is_verified_by_replay_where_dynamic_true_cannot_help_and_works_for_real(tmp_path):
    """dynamic=False and sequences of varying length: every new length
    recompiles. The replay with the length dim marked dynamic (the line a
    user adds before the call) removes both recompiles; the setting behind
    dynamic=True does not, as torch.compile(dynamic=False) overrides it."""
    real = real_run("lengths", tmp_path)
    predicted = rehearsed("lengths")
    assert recompiles(predicted) == recompiles(real) == [
        ("forward", "0/1", "shape_input", "problem"),
        ("forward", "0/2", "shape_input", "problem"),
    ]

    setting, mark = predicted.verified_fixes
    assert (setting.verified, setting.works) == (True, False)
    assert (mark.compile_id, mark.verified, mark.works) == ("0/1", True, True), mark
    assert (mark.mark.function, mark.mark.argument, mark.mark.dim) == ("forward", "ids", 1)
    assert mark.settings == {} and "mark_dynamic(<the tensor you pass as ids>, 1)" in mark.fix
    assert "0/1's recompile is gone" in mark.detail and "(0 recompile(s) in all, was 2)" in mark.detail

    fixed = real_run("lengths", tmp_path, {"mark_dynamic": {mark.mark.argument: mark.mark.dim}})
    assert fixed.totals.recompiles == 0 and fixed.totals.compiles == 1
    assert fixed.totals.graph_breaks == real.totals.graph_breaks


# --- rehearse: what it cannot see ---------------------------------------------


def test_a_plan_that_reads_item_shows_in_unseen_and_never_passes_the_gate():
    predicted = rehearsed("item")

    [unseen] = predicted.unseen
    assert unseen.kind == "plan_raised"
    source = (HERE / "_rehearse_scenarios.py").read_text().splitlines()
    line = next(i for i, text in enumerate(source, 1) if "loss.item()" in text)
    assert unseen.where.endswith(f"_rehearse_scenarios.py:{line}")
    assert ".item()" in unseen.why and "item() cannot be called on meta" in unseen.detail
    verdict = predicted.check()
    assert not verdict.passed and verdict.exit_code == 2
    assert "not rehearsed" in str(verdict) and f"_rehearse_scenarios.py:{line}" in str(verdict)
    assert predicted.check(allow_unseen=True).passed


def test_a_plan_that_raises_before_compiling_is_an_error_not_a_clean_prediction():
    def plan():
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")

    with pytest.raises(guardscope.RehearsalError, match="compiled nothing") as e:
        guardscope.rehearse(plan)
    assert e.value.unseen[0].kind == "plan_raised"


# --- rehearse: the caller's state ----------------------------------------------


def test_a_rehearsal_leaves_the_callers_model_caches_and_settings_as_they_were():
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    from torch._dynamo.utils import counters

    torch.manual_seed(0)
    model = scenarios.MLP()
    compiled = torch.compile(model, backend="eager")
    compiled(torch.randn(16, 32))
    code = scenarios.MLP.forward.__code__
    entries = len(_debug_get_cache_entry_list(code))
    graphs = counters["stats"]["unique_graphs"]
    limit = torch._dynamo.config.recompile_limit
    state = {k: v.clone() for k, v in model.state_dict().items()}

    def plan():
        torch._dynamo.config.recompile_limit = 1
        model.train(False)
        meta = guardscope.to_meta(model)
        scenarios.mlp_loop(meta, torch.compile(meta), "meta")

    predicted = guardscope.rehearse(plan)

    assert predicted.totals.compiles >= 2
    assert len(_debug_get_cache_entry_list(code)) == entries == 1
    assert torch._dynamo.config.recompile_limit == limit
    assert model.training
    assert all(torch.equal(state[k], v) for k, v in model.state_dict().items())
    # The caller's compiled code is still there: the same call compiles nothing.
    compiled(torch.randn(16, 32))
    assert counters["stats"]["unique_graphs"] == graphs


def test_a_rehearsals_findings_and_page_say_they_are_predicted(tmp_path):
    """The Rehearsal's summary document marks it, and each recompile, as
    predicted by a meta rehearsal; its page carries the banner; its log stays
    readable (log_dir) while the object lives, as a rehearsal's."""
    model = scenarios.MLP()
    meta = guardscope.to_meta(model)
    compiled = torch.compile(meta)

    rehearsal = guardscope.rehearse(lambda: scenarios.mlp_loop(meta, compiled, "meta"), verify_fixes=False)

    assert rehearsal.data["predicted"]["level"] == "meta rehearsal" == rehearsal.level
    assert rehearsal.data["predicted"]["backend"] == "eager"
    assert [r.data["predicted"] for r in rehearsal.recompiles] == ["meta rehearsal"] * len(rehearsal.recompiles) != []
    page = rehearsal.report(tmp_path / "page")
    assert "Predicted, not measured:" in page.read_text()
    again = guardscope.load(rehearsal.log_dir)
    assert again.data["predicted"] == rehearsal.data["predicted"]
    assert [r.compile_id for r in again.recompiles] == [r.compile_id for r in rehearsal.recompiles]


def test_a_loaders_batches_are_made_from_its_dataset_without_iterating_it():
    """The callbacks' batches: the loader's sizes and last, short batch
    from its sampler's length, collated by its own collate function; a
    shuffled loader's sample is drawn without the global random state,
    drop_last leaves no short batch, an iterable dataset no length."""
    from guardscope.integrations._rehearsal import batches_of

    data = torch.utils.data.TensorDataset(torch.randn(37, 3), torch.arange(37))
    shuffled = torch.utils.data.DataLoader(data, batch_size=8, shuffle=True)
    found = batches_of("train", shuffled)
    assert (found.length, found.size, found.last, found.sequential) == (37, 8, 5, False)
    state = torch.get_rng_state()
    batches = found.make(2)
    assert torch.equal(torch.get_rng_state(), state), "the job's random state is not moved"
    assert [b[0].shape[0] for b in batches] == [8, 8, 5]
    evaluation = batches_of("eval", torch.utils.data.DataLoader(data, batch_size=16))
    assert evaluation.sequential and [b[1].tolist()[0] for b in evaluation.make(4)] == [0, 16, 32]
    assert batches_of("train", torch.utils.data.DataLoader(data, batch_size=8, drop_last=True)).last == 0

    class Stream(torch.utils.data.IterableDataset):
        def __iter__(self):
            return iter(torch.randn(3) for _ in range(20))

    streamed = batches_of("train", torch.utils.data.DataLoader(Stream(), batch_size=8))
    assert streamed.length is None and streamed.last == 0 and "length unknown" in streamed.describe()
    assert [b.shape[0] for b in streamed.make(2)] == [8, 8]
