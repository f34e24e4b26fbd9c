import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, dim=8, hidden=64, p=0.2):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)
        self.p = p

    def forward(self, x, sample=False):
        active = self.training or sample
        h = F.dropout(F.relu(self.fc1(x)), self.p, training=active)
        h = F.dropout(F.relu(self.fc2(h)), self.p, training=active)
        return self.out(h).squeeze(-1)


model = Regressor()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

w_true = torch.randn(8)
xs = torch.randn(256, 8)
ys = xs @ w_true + 0.1 * torch.randn(256)
x_val = torch.randn(32, 8)
y_val = x_val @ w_true

for epoch in range(4):
    model.train()
    for i in range(0, 256, 32):
        loss = F.mse_loss(cmodel(xs[i : i + 32]), ys[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    with torch.no_grad():
        point = cmodel(x_val)
        draws = torch.stack([cmodel(x_val, sample=True) for _ in range(8)])
        std = draws.std(0).mean().item()
        mse = F.mse_loss(point, y_val).item()
    print(f"epoch {epoch} val_mse {mse:.4f} mc_std {std:.4f}")
