import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Each input resolution is folded into channels with its own factor so that
# the trunk always sees a 8x8 grid.
RESOLUTIONS = {16: 2, 32: 4, 64: 8}


class SpaceToDepthEncoder(nn.Module):
    def __init__(self, in_ch=3, width=32, grid=8):
        super().__init__()
        self.width = width
        self.proj = nn.ModuleDict({
            str(f): nn.Conv2d(in_ch * f * f, width, 1) for f in RESOLUTIONS.values()
        })
        self.trunk = nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1), nn.GELU(),
            nn.Conv2d(width, width, 3, padding=1), nn.GELU(),
        )
        self.head = nn.Linear(width, 10)

    def forward(self, x, factor):
        z = F.pixel_unshuffle(x, factor)
        z = self.proj[str(factor)](z)
        z = self.trunk(z)
        return self.head(z.mean(dim=(2, 3)))


model = SpaceToDepthEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
step = torch.compile(model, backend="aot_eager")


def batches(res, n):
    for _ in range(n):
        yield torch.randn(4, 3, res, res), torch.randint(0, 10, (4,))


for epoch in range(2):
    for res, factor in RESOLUTIONS.items():
        total = 0.0
        for x, y in batches(res, 3):
            logits = step(x, factor)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} res {res} loss {total / 3:.4f}")
