"""Churn classifier on numeric account columns with gaps.  Missing cells are
imputed inside the model with per-column fill values (column means from
torch.nanmean, kept as a list of Python floats) and the missingness mask is
fed to the network as extra inputs.  Each week the fill values are refreshed
from that week's data before training on it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

COLUMNS = ["tenure_days", "monthly_spend", "support_calls", "logins_30d", "discount_pct"]


class ImputingMLP(nn.Module):
    def __init__(self, n_cols):
        super().__init__()
        self.fill_values = [0.0] * n_cols
        self.net = nn.Sequential(nn.Linear(2 * n_cols, 32), nn.SiLU(), nn.Linear(32, 16), nn.SiLU(), nn.Linear(16, 1))

    def refresh_fill(self, x):
        self.fill_values = torch.nanmean(x, dim=0).tolist()

    def forward(self, x):
        missing = torch.isnan(x)
        cols = []
        for j, fill in enumerate(self.fill_values):
            cols.append(torch.where(missing[:, j], fill, x[:, j]))
        filled = torch.stack(cols, dim=1)
        z = torch.sign(filled) * torch.log1p(filled.abs())
        return self.net(torch.cat([z, missing.float()], dim=1)).squeeze(1)


def week_of_accounts(week, n=192):
    scale = torch.tensor([400.0, 60.0, 3.0, 20.0, 10.0]) * (1 + 0.1 * week)
    x = torch.rand(n, len(COLUMNS)) * scale
    gaps = torch.rand_like(x) < torch.tensor([0.02, 0.1, 0.3, 0.15, 0.5])
    x = x.masked_fill(gaps, float("nan"))
    churn = ((x[:, 2].nan_to_num(0) > 2) | (x[:, 3].nan_to_num(0) < 4)).float()
    return x, churn


model = ImputingMLP(len(COLUMNS))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)

for week in range(3):
    x, y = week_of_accounts(week)
    model.refresh_fill(x)
    for epoch in range(2):
        for s in range(0, x.shape[0], 64):
            logits = compiled(x[s:s + 64])
            loss = F.binary_cross_entropy_with_logits(logits, y[s:s + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"week {week} fill {[round(v, 2) for v in model.fill_values]} loss {loss.item():.4f}")
