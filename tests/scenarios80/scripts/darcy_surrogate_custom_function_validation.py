# Surrogate for 1-D Darcy flow: predicts pressure from a log-permeability field.
# Positivity of the permeability is enforced with a hand-written softplus that
# has its own backward (numerically stable for large inputs).
import torch
from torch import nn

torch.manual_seed(0)


class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(x, threshold):
        return torch.where(x > threshold, x, torch.log1p(torch.exp(x.clamp(max=threshold))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, threshold = inputs
        ctx.save_for_backward(x)
        ctx.threshold = threshold

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        sig = torch.sigmoid(x)
        return grad_out * torch.where(x > ctx.threshold, torch.ones_like(x), sig), None


class DarcySurrogate(nn.Module):
    def __init__(self, n=64, width=32):
        super().__init__()
        self.lift = nn.Conv1d(1, width, 5, padding=2)
        self.mix = nn.Conv1d(width, width, 5, padding=2)
        self.proj = nn.Conv1d(width, 1, 1)

    def forward(self, log_k):
        k = StableSoftplus.apply(log_k, 20.0)
        h = torch.relu(self.lift(k.unsqueeze(1)))
        h = torch.relu(self.mix(h)) + h
        return self.proj(h).squeeze(1), k


def solve_darcy(k, f=1.0):
    # finite-volume solve of -(k p')' = f with p(0)=p(1)=0
    n = k.shape[-1]
    h = 1.0 / (n + 1)
    kf = 0.5 * (k[..., 1:] + k[..., :-1])
    kf = torch.cat([k[..., :1], kf, k[..., -1:]], dim=-1)
    A = torch.diag_embed(kf[..., :-1] + kf[..., 1:]) - torch.diag_embed(kf[..., 1:-1], 1) - torch.diag_embed(kf[..., 1:-1], -1)
    rhs = torch.full(k.shape, f * h * h)
    return torch.linalg.solve(A, rhs.unsqueeze(-1)).squeeze(-1)


def make_batch(bs=32, n=64):
    log_k = torch.cumsum(0.3 * torch.randn(bs, n), dim=-1) / 4
    k = torch.nn.functional.softplus(log_k)
    return log_k, solve_darcy(k)


model = DarcySurrogate()
net = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
val_logk, val_p = make_batch()

for epoch in range(4):
    model.train()
    for it in range(5):
        log_k, p = make_batch()
        pred, _ = net(log_k)
        loss = (pred - p).pow(2).mean() / p.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        vpred, _ = net(val_logk)
        vloss = (vpred - val_p).pow(2).mean() / val_p.pow(2).mean()
    print(f"epoch {epoch} train={loss.item():.4f} val={vloss.item():.4f}")
