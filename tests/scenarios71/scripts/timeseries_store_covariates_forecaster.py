import torch
import torch.nn as nn

torch.manual_seed(0)

LOOKBACK, HORIZON, HIDDEN = 28, 7, 32


class CovariateForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(LOOKBACK, HIDDEN)
        self.cov_proj = nn.ModuleDict({
            "price": nn.Linear(LOOKBACK, HIDDEN),
            "promo": nn.Linear(LOOKBACK, HIDDEN),
            "holiday": nn.Linear(LOOKBACK, HIDDEN),
        })
        self.decoder = nn.Linear(HIDDEN, HORIZON)

    def forward(self, sales, covariates):
        level = sales.mean(dim=1, keepdim=True)
        scale = sales.std(dim=1, keepdim=True) + 1e-3
        z = (sales - level) / scale
        h = self.encoder(torch.diff(z, dim=1, prepend=z[:, :1]).cumsum(dim=1))
        for name, series in covariates.items():
            h = h + self.cov_proj[name](series)
        return self.decoder(torch.relu(h)) * scale + level


def store_batch(store_id, batch=32):
    gen = torch.Generator().manual_seed(store_id)
    t = torch.arange(LOOKBACK + HORIZON).float()
    base = 10 + 3 * torch.sin(2 * torch.pi * t / 7)
    sales = base + torch.randn(batch, LOOKBACK + HORIZON, generator=gen)
    covs = {"price": torch.rand(batch, LOOKBACK, generator=gen)}
    # only some stores run promotions / report holidays
    if store_id % 2 == 0:
        covs["promo"] = (torch.rand(batch, LOOKBACK, generator=gen) < 0.2).float()
    if store_id % 3 == 0:
        covs["holiday"] = (torch.rand(batch, LOOKBACK, generator=gen) < 0.05).float()
    return sales[:, :LOOKBACK], covs, sales[:, LOOKBACK:]


model = CovariateForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step_fn = torch.compile(model, backend="aot_eager")

for epoch in range(2):
    for store_id in range(1, 7):
        hist, covs, target = store_batch(store_id)
        pred = step_fn(hist, covs)
        loss = (pred - target).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} store {store_id} mae {loss.item():.3f}")
