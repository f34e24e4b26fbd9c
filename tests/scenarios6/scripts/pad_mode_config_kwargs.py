"""Denoise 1-D sensor signals with a conv net whose border handling is a config.

Each experiment in the user's sweep names how the signal border is padded
(`pad_mode`, a string given to F.pad) and may add extra keyword options for
the loss; the compiled step forwards these straight through.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

conv1 = nn.Conv1d(1, 16, kernel_size=5)
conv2 = nn.Conv1d(16, 1, kernel_size=5)
params = list(conv1.parameters()) + list(conv2.parameters())
opt = torch.optim.Adam(params, lr=2e-3)


@torch.compile(backend="aot_eager")
def denoise_loss(noisy, clean, pad_mode, **loss_kwargs):
    h = F.pad(noisy, (2, 2), mode=pad_mode)
    h = torch.relu(conv1(h))
    h = F.pad(h, (2, 2), mode=pad_mode)
    out = conv2(h)
    return F.huber_loss(out, clean, **loss_kwargs)


t = torch.linspace(0, 12.0, 200)
clean = torch.sin(t * torch.rand(32, 1, 1) * 3)
noisy = clean + 0.2 * torch.randn_like(clean)

experiments = [
    {"pad_mode": "reflect"},
    {"pad_mode": "reflect", "loss": {"delta": 0.5}},
    {"pad_mode": "replicate", "loss": {"delta": 0.5}},
    {"pad_mode": "circular", "loss": {"delta": 0.5, "reduction": "sum"}},
    {"pad_mode": "reflect"},
]

for n, cfg in enumerate(experiments):
    for step in range(3):
        loss = denoise_loss(noisy, clean, cfg["pad_mode"], **cfg.get("loss", {}))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"experiment {n} {cfg} loss {loss.item():.4f}")
