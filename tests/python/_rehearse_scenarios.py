"""Scenarios run twice by test_rehearse.py: for real on CPU under TORCH_TRACE
(``python _rehearse_scenarios.py NAME BACKEND [SETTINGS]``, a fresh process as a job
is) and rehearsed on meta with ``guardscope.rehearse`` in the test's
process. The model and the loop are the same code in both; only the device
and the model's copy differ."""

import json
import sys

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, d_in=32, d_hidden=64, d_out=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.drop = nn.Dropout(0.1)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(self.drop(torch.relu(self.fc1(x))))


def mlp_loop(model, compiled, device):
    """Three full batches and an odd last one in training, then an eval pass
    under no_grad (a full batch and the odd one)."""
    model.train()
    for batch in (16, 16, 16, 7):
        x = torch.randn(batch, 32, device=device)
        compiled(x).sum().backward()
    model.eval()
    with torch.no_grad():
        for batch in (16, 7):
            compiled(torch.randn(batch, 32, device=device))


def tiny_gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2)
    torch.manual_seed(0)
    return GPT2LMHeadModel(config)


def gpt2_loop(model, compiled, device):
    """Variable sequence lengths in training (labels given: a loss), then
    an eval pass under no_grad. No KV cache: on torch 2.11 Dynamo cannot
    trace the empty cache tensor transformers creates on meta (the
    rehearsal reports it as unseen; 2.15 traces it)."""
    model.train()
    for length in (16, 16, 24, 9):
        ids = torch.randint(0, 128, (4, length), device=device)
        compiled(input_ids=ids, labels=ids, use_cache=False).loss.backward()
    model.eval()
    with torch.no_grad():
        compiled(input_ids=torch.randint(0, 128, (4, 16), device=device), use_cache=False)


def item_loop(model, compiled, device):
    """A loss logged with .item() after each step: needs real values."""
    losses = []
    for batch in (16, 16, 7):
        loss = compiled(torch.randn(batch, 32, device=device)).sum()
        loss.backward()
        losses.append(loss.item())


class Tagged(nn.Module):
    """Branches on a string argument: each new string compiles again."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 4)

    def forward(self, x, tag):
        if tag.endswith("0"):
            return self.fc(x) * 2
        return self.fc(x)


def limit_loop(model, compiled, device):
    """Ten tags, one per call: past the recompile limit (8)."""
    with torch.no_grad():
        for i in range(10):
            compiled(torch.randn(16, 32, device=device), f"run-{i}")


class TokenLM(nn.Module):
    """A tiny token model whose loss reads every position: any length works."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(64, 16)
        self.fc = nn.Linear(16, 16)
        self.head = nn.Linear(16, 64)

    def forward(self, ids):
        logits = self.head(torch.relu(self.fc(self.embed(ids))))
        return nn.functional.cross_entropy(logits.flatten(0, 1), ids.flatten())


def lengths_loop(model, compiled, device, marks=None):
    """Batches of 4 sequences whose length varies, compiled with
    dynamic=False: each new length compiles again. ``marks`` ({"ids": dim}):
    the fix a user writes, mark_dynamic before each call."""
    model.train()
    for length in (12, 12, 20, 9):
        ids = torch.randint(0, 64, (4, length), device=device)
        for dim in (marks or {}).values():
            torch._dynamo.mark_dynamic(ids, dim)
        compiled(ids).backward()


#: name -> (the model, the loop, torch.compile's options)
SCENARIOS = {
    "mlp": (lambda: MLP(), mlp_loop, {}),
    "gpt2": (tiny_gpt2, gpt2_loop, {}),
    "item": (lambda: MLP(), item_loop, {}),
    "limit": (lambda: Tagged(), limit_loop, {}),
    "lengths": (lambda: TokenLM(), lengths_loop, {"dynamic": False}),
}


def real(name, backend, settings):
    marks = settings.pop("mark_dynamic", None)
    for key, value in settings.items():
        setattr(torch._dynamo.config, key, value)
    make, loop, options = SCENARIOS[name]
    torch.manual_seed(0)
    model = make()
    compiled = torch.compile(model, backend=backend, **options)
    if marks is None:
        loop(model, compiled, "cpu")
    else:
        loop(model, compiled, "cpu", marks)


if __name__ == "__main__":
    # A third argument: torch._dynamo.config settings as JSON (a verified
    # fix), or {"mark_dynamic": {argument: dim}}: the marks the loop makes.
    real(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]) if len(sys.argv) > 3 else {})
