import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GQAttention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q = nn.Linear(dim, n_heads * self.head_dim)
        self.kv = nn.Linear(dim, 2 * n_kv_heads * self.head_dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, n_rep):
        b, t, _ = x.shape
        q = self.q(x).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(x).view(b, t, 2, -1, self.head_dim).unbind(2)
        k = torch.repeat_interleave(k.transpose(1, 2), repeats=n_rep, dim=1)
        v = torch.repeat_interleave(v.transpose(1, 2), repeats=n_rep, dim=1)
        att = (q @ k.transpose(-1, -2)) / self.head_dim ** 0.5
        out = att.softmax(-1) @ v
        return self.o(out.transpose(1, 2).reshape(b, t, -1))


class UpsamplingDecoder(nn.Module):
    """Token decoder whose stages double the sequence length; later stages share fewer kv heads."""

    def __init__(self, dim=32, n_heads=8, kv_heads=(8, 4, 2)):
        super().__init__()
        self.stages = nn.ModuleList([GQAttention(dim, n_heads, kv) for kv in kv_heads])
        self.reps = [n_heads // kv for kv in kv_heads]
        self.head = nn.Linear(dim, 4)

    def forward(self, x):
        for stage, rep in zip(self.stages, self.reps):
            x = x + attend(stage, x, rep)
            x = x.repeat_interleave(2, dim=1)
        return self.head(x)


@torch.compile(backend="aot_eager")
def attend(stage, x, n_rep):
    return stage(x, n_rep)


model = UpsamplingDecoder()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
for step in range(4):
    x = torch.randn(2, 6, 32)
    target = torch.randn(2, 48, 4)
    loss = F.mse_loss(model(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("step", step, "loss", round(loss.item(), 4))
