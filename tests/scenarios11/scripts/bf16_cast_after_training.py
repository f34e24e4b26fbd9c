"""Train in float32, then convert the model to bfloat16 for serving.

The same compiled module object is kept; after training the user calls
`model.to(torch.bfloat16)` to halve the memory before serving requests.
"""

import torch
from torch import nn

torch.manual_seed(0)


class Tagger(nn.Module):
    def __init__(self, vocab=500, dim=64, tags=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.LayerNorm(dim))
        self.head = nn.Linear(dim, tags)
        # precomputed position scale, not saved in checkpoints
        self.register_buffer("pos_scale", torch.linspace(1.0, 0.5, 32), persistent=False)

    def forward(self, tokens):
        h = self.emb(tokens) * self.pos_scale[: tokens.shape[1], None]
        return self.head(self.mix(h))


model = Tagger()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

tokens = torch.randint(0, 500, (8, 32))
tags = torch.randint(0, 9, (8, 32))

for step in range(5):
    logits = compiled(tokens)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tags.flatten())
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.3f}")

# quick float32 check on held-out tokens before converting
model.eval()
with torch.no_grad():
    held_out = torch.randint(0, 500, (8, 32))
    ref = compiled(held_out).argmax(-1)
    print(f"float32 held-out first tags {ref[0, :5].tolist()}")

# serving: smaller weights
model.to(torch.bfloat16)
with torch.no_grad():
    for req in range(4):
        request = torch.randint(0, 500, (8, 32))
        pred = compiled(request).argmax(-1)
        print(f"request {req} first tags {pred[0, :5].tolist()}")
