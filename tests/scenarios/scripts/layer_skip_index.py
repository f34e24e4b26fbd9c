import torch
from torch import nn

torch.manual_seed(0)


class SkipNet(nn.Module):
    def __init__(self, depth=4, width=32):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(width, width) for _ in range(depth))
        self.out = nn.Linear(width, 1)

    def forward(self, x, skip):
        for i, layer in enumerate(self.layers):
            if i == skip:
                continue  # stochastic depth: the loop picks one layer to drop
            x = x + torch.tanh(layer(x))
        return self.out(x)


model = SkipNet()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

schedule = [0, 1, 2, 3, 1, 0, 3, 2]
for step, skip in enumerate(schedule):
    x = torch.randn(8, 32)
    loss = compiled(x, skip).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} skip {skip} loss {loss.item():.4f}")
