"""`guardscope diff` on traces written just now by the real hooks with real
torch: a rerun is equal, a perturbed middle layer is the first divergence,
a renamed module tree matches after --strip-prefix."""

import json

import pytest
from _models import Net
from torch import nn

import guardscope

# Net(d=16, blocks=3): execution order per step is blocks.N.{ln,fc1,act,fc2},
# blocks.N for N = 0..2, then head.
LAYERS = r"^(blocks\.\d+(\.\w+)?|head)$"
STEPS = 3


class Wrapped(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.model = net

    def forward(self, x):
        return self.model(x)


def make_trace(torch, path, perturb=None, wrap=False, compiled=False):
    torch.manual_seed(0)
    model = Net(d=16, blocks=3).eval()
    if perturb is not None:
        with torch.no_grad():
            weight = model.get_submodule(perturb).weight
            weight.mul_(1.5)
    root = Wrapped(model) if wrap else model
    layers = r"^model\." + LAYERS[1:] if wrap else LAYERS
    trace = guardscope.trace_activations(root, layers=layers, stats=("abs_mean", "sum", "max"), output=path)
    forward = torch.compile(root, backend="aot_eager", fullgraph=True) if compiled else root
    with torch.no_grad():
        for step in range(STEPS):
            trace.set_step(step)
            gen = torch.Generator().manual_seed(step)
            forward(torch.randn(2, 5, 16, generator=gen))
    trace.close()
    return str(path)


def diff(capfd, *args):
    capfd.readouterr()
    code = guardscope.main(["diff", "--json", *map(str, args)])
    out, err = capfd.readouterr()
    return code, json.loads(out), err


def test_the_same_model_twice_is_equal(torch, tmp_path, capfd):
    a = make_trace(torch, tmp_path / "a.jsonl")
    b = make_trace(torch, tmp_path / "b.jsonl", compiled=True)
    code, result, err = diff(capfd, a, b)
    assert (code, err) == (0, "")
    assert result["verdict"] == "equal"
    assert result["compared"] == 16 * STEPS
    assert result["divergent"] == 0


def test_a_perturbed_middle_layer_is_the_first_divergence(torch, tmp_path, capfd):
    a = make_trace(torch, tmp_path / "a.jsonl")
    b = make_trace(torch, tmp_path / "b.jsonl", perturb="blocks.1.fc2")
    code, result, _ = diff(capfd, a, b, "--show", "100")
    assert code == 1
    first = result["first_divergence"]
    assert (first["module"], first["step"], first["call"]) == ("blocks.1.fc2", 0, 0)
    divergent = [first, *result["next_divergences"]]
    assert len(divergent) == result["divergent"]
    upstream = {"blocks.0.ln", "blocks.0.fc1", "blocks.0.act", "blocks.0.fc2", "blocks.0",
                "blocks.1.ln", "blocks.1.fc1", "blocks.1.act"}  # fmt: skip
    assert not upstream & {d["module"] for d in divergent}
    assert {d["step"] for d in divergent if d["module"] == "blocks.1.fc2"} == set(range(STEPS))


def test_a_renamed_prefix_matches_after_strip_prefix(torch, tmp_path, capfd):
    a = make_trace(torch, tmp_path / "a.jsonl")
    b = make_trace(torch, tmp_path / "b.jsonl", wrap=True)
    code, result, _ = diff(capfd, a, b)
    assert code == 1
    assert result["compared"] == 0
    assert result["only_in_b"]["groups"][0]["module"] == "model.blocks.0.ln"
    assert "--strip-prefix B=model." in result["hint"]
    code, result, _ = diff(capfd, a, b, "--strip-prefix", "B=model.")
    assert code == 0
    assert result["compared"] == 16 * STEPS


def test_unreadable_input_exits_2(tmp_path, capfd):
    assert guardscope.main(["diff", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]) == 2
    assert "a.jsonl" in capfd.readouterr().err


@pytest.fixture(autouse=True)
def _reset_dynamo(torch):
    yield
    torch._dynamo.reset()
