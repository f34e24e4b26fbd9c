"""LoRA on a home-made MLP tagger, no transformers model involved.

The adapter is injected straight into the plain module, with a larger rank
on the output projection.
"""

import torch
from torch import nn
from peft import LoraConfig, inject_adapter_in_model

torch.manual_seed(0)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(500, 64)
        self.proj_in = nn.Linear(64, 128)
        self.proj_mid = nn.Linear(128, 128)
        self.proj_out = nn.Linear(128, 9)

    def forward(self, ids):
        h = torch.relu(self.proj_in(self.embed(ids)))
        h = torch.relu(self.proj_mid(h))
        return self.proj_out(h)


cfg = LoraConfig(
    r=4,
    lora_alpha=8,
    target_modules=["proj_in", "proj_mid", "proj_out"],
    rank_pattern={"proj_out": 8},
    alpha_pattern={"proj_out": 16},
    use_rslora=True,
)
tagger = inject_adapter_in_model(cfg, Tagger())
for name, p in tagger.named_parameters():
    p.requires_grad = "lora_" in name

model = torch.compile(tagger, backend="aot_eager")
opt = torch.optim.AdamW([p for p in tagger.parameters() if p.requires_grad], lr=1e-3)

for step in range(6):
    ids = torch.randint(0, 500, (16, 24))
    tags = torch.randint(0, 9, (16, 24))
    logits = model(ids)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 9), tags.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")

# tag a few held-out sentences
tagger.eval()
with torch.no_grad():
    for n in (24, 24):
        ids = torch.randint(0, 500, (4, n))
        print("pred", model(ids).argmax(-1)[0, :8].tolist())
