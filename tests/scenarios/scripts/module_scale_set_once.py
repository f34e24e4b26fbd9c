import torch
from torch import nn

torch.manual_seed(0)


class ScaledResidualMLP(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)
        self.residual_scale = 1.0

    def forward(self, x):
        h = self.fc2(torch.relu(self.fc1(x)))
        return x + self.residual_scale * h


model = ScaledResidualMLP(32)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(8):
    if step == 3:
        # warm-up done: damp the residual branch for the rest of training
        model.residual_scale = 0.5
    x = torch.randn(16, 32)
    loss = compiled(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} scale {model.residual_scale} loss {loss.item():.4f}")
