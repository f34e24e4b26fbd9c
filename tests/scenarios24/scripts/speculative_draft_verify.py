"""Speculative decoding with a cheap bigram drafter and a small causal-conv
language model as the verifier.

Each request carries a latency budget; the server picks how many tokens the
drafter proposes per round from it, and the verifier scores the recent
context plus the proposed tokens in one pass.
"""

import torch
from torch import nn

torch.manual_seed(0)
VOCAB, CONTEXT = 200, 16


class ConvLM(nn.Module):
    def __init__(self, d=64, layers=3, kernel=4):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.convs = nn.ModuleList(nn.Conv1d(d, d, kernel) for _ in range(layers))
        self.kernel = kernel
        self.out = nn.Linear(d, VOCAB)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        for conv in self.convs:
            # left padding keeps it causal
            h = h + torch.tanh(conv(nn.functional.pad(h, (self.kernel - 1, 0))))
        return self.out(h.transpose(1, 2))


target = ConvLM().eval()
draft_table = torch.randint(0, VOCAB, (VOCAB,))


@torch.compile(backend="aot_eager")
def verify(context, proposal):
    ids = torch.cat([context, proposal], dim=1)
    logits = target(ids)
    # logits at position i predict token i + 1
    choice = logits[:, CONTEXT - 1 : -1].argmax(-1)
    return choice, (choice == proposal).int().cumprod(-1).sum(-1)


def draft(last_token, k):
    toks, t = [], last_token
    for _ in range(k):
        t = draft_table[t]
        toks.append(t)
    return torch.stack(toks)[None, :]


def serve(prompt, budget_ms, new_tokens=12):
    k = 2 if budget_ms < 20 else 4 if budget_ms < 60 else 6
    seq = prompt.clone()
    while seq.numel() < prompt.numel() + new_tokens:
        context = seq[-CONTEXT:][None, :]
        proposal = draft(seq[-1], k)
        choice, n_ok = verify(context, proposal)
        n_ok = int(n_ok.item())
        # keep the accepted prefix and the verifier's own next token
        seq = torch.cat([seq, proposal[0, :n_ok], choice[0, n_ok : n_ok + 1]])
    return seq[prompt.numel() :], k


with torch.no_grad():
    for budget in [45, 50, 15, 100, 40, 10]:
        prompt = torch.randint(0, VOCAB, (24,))
        out, k = serve(prompt, budget)
        print(f"budget {budget}ms draft {k} -> {out.tolist()[:6]}")
