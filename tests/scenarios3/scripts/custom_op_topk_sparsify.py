import torch
from torch import nn

torch.manual_seed(0)


@torch.library.custom_op("sparsify::topk_mask", mutates_args=())
def topk_mask(x: torch.Tensor, k: int) -> torch.Tensor:
    idx = x.abs().topk(k, dim=-1).indices
    return torch.zeros_like(x).scatter(-1, idx, 1.0)


@topk_mask.register_fake
def _(x, k):
    return torch.empty_like(x)


class SparseAutoencoder(nn.Module):
    def __init__(self, d=32, hidden=128):
        super().__init__()
        self.enc = nn.Linear(d, hidden)
        self.dec = nn.Linear(hidden, d)

    def forward(self, x, k):
        z = torch.relu(self.enc(x))
        return self.dec(z * topk_mask(z.detach(), k))


model = SparseAutoencoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
# the number of active latents is annealed down during training
for step, k in enumerate([64, 64, 32, 16, 8]):
    x = torch.randn(64, 32)
    loss = nn.functional.mse_loss(compiled(x, k), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} k {k} loss {loss.item():.4f}")
