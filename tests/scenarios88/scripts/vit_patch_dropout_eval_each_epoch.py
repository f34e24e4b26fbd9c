import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PatchErase(nn.Module):
    """Zero out a random fraction of image patches during training."""

    def __init__(self, patch=4, prob=0.25):
        super().__init__()
        self.patch = patch
        self.prob = prob

    def forward(self, x):
        if not self.training:
            return x
        n, _, h, w = x.shape
        keep = torch.rand(n, 1, h // self.patch, w // self.patch) >= self.prob
        keep = keep.repeat_interleave(self.patch, 2).repeat_interleave(self.patch, 3)
        return x * keep


class TinyViT(nn.Module):
    def __init__(self, img=16, patch=4, dim=32, classes=5):
        super().__init__()
        self.erase = PatchErase(patch)
        self.embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.pos = nn.Parameter(torch.zeros(1, (img // patch) ** 2, dim))
        self.block = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True, dropout=0.1)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.erase(x)
        t = self.embed(x).flatten(2).transpose(1, 2) + self.pos
        t = self.block(t)
        return self.head(self.norm(t.mean(1)))


model = TinyViT()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
val_x = torch.rand(32, 3, 16, 16)
val_y = torch.randint(0, 5, (32,))

for epoch in range(3):
    model.train()
    for _ in range(4):
        x = torch.rand(32, 3, 16, 16)
        y = torch.randint(0, 5, (32,))
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (compiled(val_x).argmax(1) == val_y).float().mean()
    print(f"epoch {epoch} loss={loss.item():.4f} val_acc={acc.item():.3f}")
