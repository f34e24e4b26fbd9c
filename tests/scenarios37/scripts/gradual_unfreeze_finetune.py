"""Fine-tune a small pretrained-style encoder ULMFiT-style: start with only the
classifier head trainable and unfreeze one more block from the top each epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D, N_BLOCKS, N_CLASSES = 32, 4, 4


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(16, D)
        self.blocks = nn.ModuleList(Block(D) for _ in range(N_BLOCKS))
        self.head = nn.Linear(D, N_CLASSES)

    def forward(self, x):
        h = self.inp(x)
        for block in self.blocks:
            h = block(h)
        return self.head(h.mean(dim=1))


model = Encoder()
# pretend these came from a checkpoint: freeze everything except the head
for p in model.parameters():
    p.requires_grad_(False)
model.head.requires_grad_(True)

compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

w = torch.randn(16, N_CLASSES)


def batch(n=32, seq=6):
    x = torch.randn(n, seq, 16)
    return x, (x.mean(1) @ w).argmax(-1)


for epoch in range(4):
    if epoch > 0:
        model.blocks[N_BLOCKS - epoch].requires_grad_(True)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    for step in range(4):
        x, y = batch()
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} trainable={trainable} loss={loss.item():.4f}")
