import torch
from torch import nn

torch.manual_seed(0)
# keep compile time bounded on the CI box: give up on a frame after two recompiles
torch._dynamo.config.recompile_limit = 2


class ResidualBlock(nn.Module):
    """Dilated causal conv block of a temporal convolutional network."""

    def __init__(self, ch, dilation):
        super().__init__()
        self.dilation = dilation
        self.conv = nn.Conv1d(ch, ch, kernel_size=3, dilation=dilation)
        self.norm = nn.GroupNorm(1, ch)

    def forward(self, x):
        pad = 2 * self.dilation  # left padding keeps the conv causal
        h = self.conv(nn.functional.pad(x, (pad, 0)))
        return x + torch.relu(self.norm(h))


class TCN(nn.Module):
    def __init__(self, ch=16, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.inp = nn.Conv1d(4, ch, 1)
        self.blocks = nn.ModuleList(ResidualBlock(ch, d) for d in dilations)
        self.out = nn.Conv1d(ch, 1, 1)

    def forward(self, x):
        h = self.inp(x)
        for block in self.blocks:
            h = block(h)
        return self.out(h)


model = TCN()
for block in model.blocks:
    block.compile(backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(3):
    x = torch.randn(8, 4, 64)
    loss = (model(x)[..., -1] - x[:, 0, -1:]).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
