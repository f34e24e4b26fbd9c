"""Class-conditional sampler for a tiny conditional MLP generator.

The sampler draws a batch of latents for a list of labels. When every
sample in the batch asks for the same class, the user saves a lookup by
embedding the label once and broadcasting it over the batch; mixed
batches embed each label.
"""

import torch
from torch import nn

torch.manual_seed(0)

LATENT, N_CLASSES, COND = 32, 10, 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(LATENT + COND, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, 784)
        )

    def forward(self, z, cond):
        return torch.tanh(self.body(torch.cat([z, cond], dim=1)))


label_emb = nn.Embedding(N_CLASSES, COND)
gen = Generator().eval()
generate = torch.compile(gen, backend="aot_eager")


def condition_for(labels):
    if len(set(labels)) == 1:
        # same class for the whole batch: one lookup, broadcast over rows
        return label_emb(torch.tensor([labels[0]])).expand(len(labels), -1)
    return label_emb(torch.tensor(labels))


requests = [
    [3, 1, 4, 1, 5, 9, 2, 6],
    [5, 3, 5, 8, 9, 7, 9, 3],
    [7] * 8,  # "show me eight sevens"
    [2, 7, 1, 8, 2, 8, 1, 8],
    [0] * 8,
    [4] * 8,
    [6, 6, 6, 6, 6, 6, 6, 1],
]

with torch.no_grad():
    for i, labels in enumerate(requests):
        z = torch.randn(len(labels), LATENT)
        images = generate(z, condition_for(labels)).view(-1, 28, 28)
        print(f"request {i} labels {labels} mean pixel {images.mean().item():+.4f}")
