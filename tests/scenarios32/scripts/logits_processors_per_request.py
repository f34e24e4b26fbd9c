"""Small completion server for a char-level model we trained in-house.

Every request carries its own sampling settings, so the logits processors
are built fresh for each request and handed to the compiled decode step,
which scores the next character and applies them before picking it.
"""

import torch
from torch import nn
from transformers import (
    LogitsProcessorList,
    MinNewTokensLengthLogitsProcessor,
    RepetitionPenaltyLogitsProcessor,
    TopKLogitsWarper,
)

torch.manual_seed(0)
VOCAB, EOS = 64, 0


class CharLM(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.mix = nn.Sequential(nn.Linear(2 * dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.out = nn.Linear(dim, VOCAB)

    def forward(self, ids):
        h = self.emb(ids)
        ctx = torch.cat([h.mean(dim=1), h[:, -1]], dim=-1)
        return self.out(self.mix(ctx))


model = CharLM().eval()


@torch.compile(backend="aot_eager")
def decode_step(ids, processors):
    logits = model(ids)
    logits = processors(ids, logits)
    return logits.argmax(dim=-1, keepdim=True)


requests = [
    {"prompt": [5, 9, 13, 2], "repetition_penalty": 1.2, "top_k": 20, "min_new_tokens": 3},
    {"prompt": [7, 7, 3, 1], "repetition_penalty": 1.2, "top_k": 20, "min_new_tokens": 3},
    {"prompt": [11, 4, 8, 30], "repetition_penalty": 1.5, "top_k": 10, "min_new_tokens": 3},
    {"prompt": [2, 6, 6, 19], "repetition_penalty": 1.0, "top_k": 40, "min_new_tokens": 5},
]

with torch.no_grad():
    for r, req in enumerate(requests):
        ids = torch.tensor([req["prompt"]])
        processors = LogitsProcessorList(
            [
                MinNewTokensLengthLogitsProcessor(ids.shape[1], req["min_new_tokens"], EOS),
                RepetitionPenaltyLogitsProcessor(req["repetition_penalty"]),
                TopKLogitsWarper(req["top_k"]),
            ]
        )
        for _ in range(6):
            nxt = decode_step(ids, processors)
            ids = torch.cat([ids, nxt], dim=1)
            if nxt.item() == EOS:
                break
        print(f"request {r}: {ids[0].tolist()}")
