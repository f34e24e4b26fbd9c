import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Block(nn.Module):
    scale = 1.0

    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return x + Block.scale * F.gelu(self.fc(self.norm(x)))


class Net(nn.Module):
    def __init__(self, dim=32, depth=3, classes=5):
        super().__init__()
        self.inp = nn.Linear(12, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h)
        return self.head(h)


model = Net()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

# residual branch scale per phase (small while the net warms up)
phases = [("warmup", 0.1, 3), ("ramp", 0.5, 3), ("full", 1.0, 4)]

for name, scale, steps in phases:
    Block.scale = scale
    for step in range(steps):
        x = torch.randn(16, 12)
        y = torch.randint(0, 5, (16,))
        loss = F.cross_entropy(cmodel(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"phase {name} scale={scale} loss={loss.item():.4f}")
