import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CountRegressor(nn.Module):
    def __init__(self, d_in=8, log_output=True):
        super().__init__()
        self.log_output = log_output
        self.body = nn.Sequential(nn.Linear(d_in, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        out = self.body(x).squeeze(-1)
        if self.log_output:
            return out
        return F.softplus(out) + 1e-4


@torch.compile(backend="aot_eager")
def count_loss(pred, counts, log_input, full):
    return F.poisson_nll_loss(pred, counts, log_input=log_input, full=full)


def make_counts(n, d_in, rate_scale):
    x = torch.randn(n, d_in)
    rate = torch.exp(0.3 * x[:, 0] + 0.2 * x[:, 1]) * rate_scale
    return x, torch.poisson(rate)


# each count model in the comparison has its own output head convention
MODELS = [
    ("store_visits", dict(log_output=True), dict(log_input=True, full=False), 2.0),
    ("claims", dict(log_output=False), dict(log_input=False, full=False), 0.5),
    ("web_hits", dict(log_output=True), dict(log_input=True, full=True), 20.0),
]

for name, mcfg, lcfg, scale in MODELS:
    model = CountRegressor(**mcfg)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(6):
        x, y = make_counts(64, 8, scale)
        loss = count_loss(model(x), y, lcfg["log_input"], lcfg["full"])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name}: final loss {loss.item():.4f}")
