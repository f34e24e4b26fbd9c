"""A toy text-generation server sampling with each request's temperature.

Requests arrive with their own sampling temperature. The server runs a small
GRU language model over the prompt and draws the next tokens from a
Categorical distribution over the temperature-scaled logits.
"""

import torch
from torch import nn
from torch.distributions import Categorical

torch.manual_seed(0)

VOCAB = 100


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.proj = nn.Linear(64, VOCAB)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.proj(h[:, -1])


lm = TinyLM().eval()


@torch.compile(backend="aot_eager")
def next_token(tokens, temperature):
    logits = lm(tokens)
    dist = Categorical(logits=logits / temperature)
    return dist.sample()


requests = [
    {"prompt": [5, 17, 33, 2, 8, 41], "temperature": 0.7, "max_new": 4},
    {"prompt": [9, 9, 12, 64, 3, 1], "temperature": 0.7, "max_new": 4},
    {"prompt": [77, 21, 30, 4, 4, 19], "temperature": 1.0, "max_new": 4},
    {"prompt": [11, 50, 8, 2, 90, 6], "temperature": 1.3, "max_new": 4},
    {"prompt": [3, 3, 3, 70, 45, 12], "temperature": 0.2, "max_new": 4},
]

with torch.no_grad():
    for req in requests:
        tokens = torch.tensor([req["prompt"]])
        out = []
        for _ in range(req["max_new"]):
            # keep a fixed window of the most recent tokens
            tok = next_token(tokens[:, -6:], req["temperature"])
            out.append(int(tok))
            tokens = torch.cat([tokens, tok.view(1, 1)], dim=1)
        print(f"T={req['temperature']} -> {out}")
