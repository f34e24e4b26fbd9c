"""Denoising autoencoder-style generator with EMA weights used for sampling.

The EMA copy is kept in bfloat16 to save memory and updated with
torch._foreach_lerp_; the same compiled sampling function is called with the
live model during training previews and with the EMA copy at the end.
"""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class Decoder(nn.Module):
    def __init__(self, z=16):
        super().__init__()
        self.fc = nn.Linear(z, 32 * 4 * 4)
        self.net = nn.Sequential(nn.SiLU(), nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.SiLU(),
                                 nn.ConvTranspose2d(16, 3, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        return self.net(self.fc(z).view(-1, 32, 4, 4))


def preview(gen, z):
    img = gen(z)
    return ((img + 1) * 127.5).clamp(0, 255).to(torch.uint8)


sample = torch.compile(preview, backend="aot_eager")

gen = Decoder()
ema = copy.deepcopy(gen).to(torch.bfloat16).requires_grad_(False)
opt = torch.optim.RMSprop(gen.parameters(), lr=1e-3)
targets = torch.rand(64, 3, 16, 16) * 2 - 1
codes = torch.randn(64, 16)
fixed_z = torch.randn(8, 16)

for step in range(6):
    idx = torch.randint(0, 64, (16,))
    loss = (gen(codes[idx]) - targets[idx]).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        ema_p = list(ema.parameters())
        torch._foreach_lerp_(ema_p, [p.to(torch.bfloat16) for p in gen.parameters()], 0.1)
    if step % 3 == 2:
        with torch.no_grad():
            grid = sample(gen, fixed_z)
        print(f"step {step} loss={loss.item():.3f} preview mean={grid.float().mean():.1f}")

with torch.no_grad():
    final = sample(ema, fixed_z.to(torch.bfloat16))
print("ema sample", tuple(final.shape), final.dtype)
