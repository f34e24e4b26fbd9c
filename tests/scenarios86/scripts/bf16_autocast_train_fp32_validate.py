import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StableRMSNorm(torch.autograd.Function):
    # run the normalisation in float32 even inside a bf16 autocast region
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, x, weight, eps):
        rms = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        ctx.save_for_backward(x, weight, rms)
        return x * rms * weight

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad_out):
        x, weight, rms = ctx.saved_tensors
        xhat = x * rms
        grad_w = (grad_out * xhat).sum(dim=tuple(range(grad_out.dim() - 1)))
        g = grad_out * weight
        grad_x = rms * (g - xhat * (g * xhat).mean(-1, keepdim=True))
        return grad_x, grad_w, None


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return StableRMSNorm.apply(x, self.weight, self.eps)


class Block(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.norm = RMSNorm(d)
        self.ff1 = nn.Linear(d, 4 * d)
        self.ff2 = nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.ff2(F.silu(self.ff1(self.norm(x))))


class Regressor(nn.Module):
    def __init__(self, d_in=16, d=48):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.blocks = nn.Sequential(Block(d), Block(d))
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        return self.out(self.blocks(self.inp(x))).squeeze(-1)


model = Regressor()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
cmodel = torch.compile(model, backend="aot_eager")

x_tr, x_va = torch.randn(256, 16), torch.randn(64, 16)
w_true = torch.randn(16)
y_tr, y_va = torch.sin(x_tr @ w_true), torch.sin(x_va @ w_true)

for epoch in range(4):
    model.train()
    for i in range(0, 256, 32):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            pred = cmodel(x_tr[i:i + 32])
        loss = F.mse_loss(pred.float(), y_tr[i:i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
    # validation in full precision for a trustworthy number
    model.eval()
    with torch.no_grad():
        val = F.mse_loss(cmodel(x_va), y_va).item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f}")
