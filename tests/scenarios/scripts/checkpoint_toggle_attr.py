import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.ff(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(Block() for _ in range(2))
        self.use_checkpoint = False

    def forward(self, x):
        for blk in self.blocks:
            if self.use_checkpoint:
                x = checkpoint(blk, x, use_reentrant=False)
            else:
                x = blk(x)
        return x.mean()


model = Net()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

# long sequences would not fit: turn checkpointing on only for them
for step, seq in enumerate([64, 64, 512, 64, 512, 64]):
    model.use_checkpoint = seq > 256
    loss = compiled(torch.randn(2, seq, 32))
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} seq {seq} ckpt {model.use_checkpoint} loss {loss.item():.4f}")
