import torch
from torch import nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class GrowingNet(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.stem = nn.Linear(10, dim)
        self.blocks = nn.ModuleList([Block(dim)])
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = block(h)
        return self.out(h)


model = GrowingNet()
compiled = torch.compile(model, backend="aot_eager")
# progressive training: a new residual block is stacked on at each stage
for stage in range(4):
    if stage > 0:
        model.blocks.append(Block(24))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        x, y = torch.randn(32, 10), torch.randn(32, 1)
        loss = nn.functional.mse_loss(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage} blocks {len(model.blocks)} loss {loss.item():.4f}")
