import torch
from torch import nn

torch.manual_seed(0)


class BinnedFeatures(nn.Module):
    """Tabular model: a numeric column is binned at quantiles, then embedded."""

    def __init__(self, n_bins=8, dim=16):
        super().__init__()
        self.boundaries = [float(b) for b in torch.linspace(-1.5, 1.5, n_bins - 1)]
        self.bin_embed = nn.Embedding(n_bins, dim)
        self.mlp = nn.Sequential(nn.Linear(dim + 4, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, amount, other):
        bins = torch.bucketize(amount, torch.tensor(self.boundaries))
        return self.mlp(torch.cat([self.bin_embed(bins), other], -1)).squeeze(-1)

    def refit(self, amount):
        qs = torch.linspace(0, 1, self.bin_embed.num_embeddings + 1)[1:-1]
        self.boundaries = torch.quantile(amount, qs).tolist()


model = BinnedFeatures()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    amount, other, y = torch.randn(256) * (epoch + 1), torch.randn(256, 4), torch.randn(256)
    # the bins follow the data drift: re-estimated from each epoch's data
    model.refit(amount)
    for i in range(0, 256, 128):
        loss = nn.functional.mse_loss(compiled(amount[i:i + 128], other[i:i + 128]), y[i:i + 128])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
