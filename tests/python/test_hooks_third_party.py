"""The hooks' promise on real model outputs: every module of a Hugging Face
GPT-2 (tuples holding None, ModelOutput dataclasses, a cache object) and of
an nn.MultiheadAttention block ((out, None) with need_weights=False) hooked,
root included, adds no compile, no recompile and no graph break in op mode,
with and without fullgraph=True, and switching tracing off and on between
steps adds none in either mode. `make test` runs this file on the newest
torch and on the oldest supported one (torch 2.11, .venv-oldest)."""

import collections
import json

import pytest

import guardscope


def _gpt2(torch):
    import transformers

    config = transformers.GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=64, n_positions=64)
    model = transformers.GPT2LMHeadModel(config)

    def step(compiled):
        ids = torch.randint(0, 64, (2, 16))
        compiled(input_ids=ids, labels=ids).loss.backward()

    return model, step


def _attention_block(torch):
    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = torch.nn.MultiheadAttention(16, 2, batch_first=True)
            self.ff = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 16))

        def forward(self, x):
            a, _ = self.attn(x, x, x, need_weights=False)
            return self.ff(x + a)

    def step(compiled):
        compiled(torch.randn(2, 8, 16)).sum().backward()

    return Block(), step


def _run(torch, make, mode, fullgraph, tmp_path, toggle=True, steps=5):
    """Compiles of a few training steps, and the records per step."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    model, step = make(torch)
    trace = None
    if mode is not None:
        name = f"{mode}-{'toggle' if toggle else 'steady'}-{fullgraph}.jsonl"
        trace = guardscope.trace_activations(model, output=tmp_path / name, mode=mode)
    compiled = torch.compile(model, backend="aot_eager", fullgraph=fullgraph)
    with guardscope.compile_events() as seen:
        for n in range(steps):
            if trace is not None:
                trace.set_step(n)
                if toggle and n == 2:
                    trace.disable()
                if toggle and n == 3:
                    trace.enable()
            step(compiled)
    per_step = {}
    if trace is not None:
        trace.close()
        with open(trace.path) as f:
            per_step = dict(collections.Counter(json.loads(line)["step"] for line in f))
    functions = sorted(str(e["function"]) for e in seen.events)
    return functions, seen, per_step, (len(trace.modules) if trace else 0)


@pytest.mark.parametrize("fullgraph", [False, True])
def test_attention_block_fully_hooked_compiles_exactly_like_the_model_alone(torch, tmp_path, fullgraph):
    base, base_seen, _, _ = _run(torch, _attention_block, None, fullgraph, tmp_path)
    hooked, seen, per_step, modules = _run(torch, _attention_block, "op", fullgraph, tmp_path)
    assert modules == 7  # root, attn, attn.out_proj, ff, ff.0, ff.1, ff.2
    assert hooked == base, (hooked, base)
    assert not seen.recompiles and not seen.graph_breaks, (seen.recompiles, seen.graph_breaks)
    # Step 2 was switched off; the others recorded every module that ran
    # (MultiheadAttention's fast path reads out_proj's weight, never calls it).
    assert per_step == {0: 6, 1: 6, 3: 6, 4: 6}, per_step


def test_gpt2_fully_hooked_compiles_exactly_like_the_model_alone(torch, tmp_path):
    base, base_seen, _, _ = _run(torch, _gpt2, None, False, tmp_path)
    hooked, seen, per_step, modules = _run(torch, _gpt2, "op", False, tmp_path)
    assert hooked == base, (hooked, base)
    assert "guardscope_activation_hook" not in hooked
    assert not seen.recompiles, [(e["compile_id"], e["cause"]) for e in seen.recompiles]
    # GPT-2's own graph breaks (transformers' logging), none of ours.
    assert seen.graph_breaks == base_seen.graph_breaks
    assert modules > 20
    assert set(per_step) == {0, 1, 3, 4} and len(set(per_step.values())) == 1, per_step


def test_switching_tracing_off_and_on_adds_no_compile_in_disable_mode(torch, tmp_path):
    steady, _, _, _ = _run(torch, _attention_block, "disable", False, tmp_path, toggle=False)
    toggled, seen, per_step, _ = _run(torch, _attention_block, "disable", False, tmp_path, toggle=True)
    assert toggled == steady, (toggled, steady)
    assert per_step == {0: 6, 1: 6, 3: 6, 4: 6}, per_step
