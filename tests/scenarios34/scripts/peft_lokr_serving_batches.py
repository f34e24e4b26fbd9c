"""Serving a LoKr-adapted text classifier with request batching.

The adapter was trained elsewhere; here requests are grouped into batches
of whatever size arrived in the last window and padded to a fixed length.
"""

import torch
from torch import nn
from peft import LoKrConfig, get_peft_model

torch.manual_seed(0)


class TinyEncoder(nn.Module):
    def __init__(self, vocab=300, dim=64, classes=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, input_ids):
        h = self.embed(input_ids)
        h = torch.tanh(self.proj(h))
        h = self.out(h).mean(dim=1)
        return self.classifier(h)


base = TinyEncoder()
config = LoKrConfig(r=4, alpha=8, target_modules=["proj", "out"])
model = get_peft_model(base, config).eval()
compiled = torch.compile(model, backend="aot_eager")

SEQ_LEN = 32
# number of requests that arrived in each batching window
window_sizes = [8, 8, 5, 8, 3, 7]
with torch.no_grad():
    for i, n in enumerate(window_sizes):
        ids = torch.randint(0, 300, (n, SEQ_LEN))
        preds = compiled(ids).argmax(-1)
        print(f"window {i}: {n} requests -> {preds.tolist()}")
