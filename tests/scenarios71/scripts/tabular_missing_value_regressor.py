import torch
import torch.nn as nn

torch.manual_seed(0)

N_FEATURES = 10


class ImputingRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fill = nn.Parameter(torch.zeros(N_FEATURES))
        self.net = nn.Sequential(
            nn.Linear(2 * N_FEATURES, 64), nn.SiLU(), nn.LayerNorm(64), nn.Linear(64, 1)
        )

    def forward(self, x, missing=None):
        if missing is None:
            flags = torch.zeros_like(x)
        else:
            x = torch.where(missing, self.fill.expand_as(x), x)
            flags = missing.float()
        return self.net(torch.cat([x, flags], dim=1)).squeeze(1)


def load_batches(n_batches, batch=128):
    gen = torch.Generator().manual_seed(3)
    w = torch.randn(N_FEATURES, generator=gen)
    for i in range(n_batches):
        x = torch.randn(batch, N_FEATURES, generator=gen)
        y = x @ w + 0.1 * torch.randn(batch, generator=gen)
        # every third shard comes from the older sensor export with gaps
        if i % 3 == 2:
            holes = torch.rand(batch, N_FEATURES, generator=gen) < 0.15
            x[holes] = float("nan")
        yield x, y


model = ImputingRegressor()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
compiled = torch.compile(model, backend="aot_eager")

for step, (x, y) in enumerate(load_batches(12)):
    missing = torch.isnan(x)
    if not missing.any():
        missing = None
    pred = compiled(x, missing)
    loss = nn.functional.huber_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} gaps={missing is not None}")
