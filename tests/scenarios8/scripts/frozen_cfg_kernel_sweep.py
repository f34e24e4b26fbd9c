"""Kernel-size sweep for a small 1-D CNN on sensor windows.

The architecture is described by a frozen dataclass; the forward pass is a
plain function of the weights, the input and that config, compiled once.
The user sweeps over kernel-size tuples in one process and reports the
validation loss of each after a short training run.
"""

from dataclasses import dataclass

import torch
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass(frozen=True)
class ConvCfg:
    channels: int = 16
    kernel_sizes: tuple = (3, 3)


def init_params(cfg, in_ch=3, n_out=4):
    params, c = [], in_ch
    for k in cfg.kernel_sizes:
        params.append((torch.randn(cfg.channels, c, k) * 0.2).requires_grad_())
        c = cfg.channels
    params.append((torch.randn(n_out, c) * 0.2).requires_grad_())
    return params


@torch.compile(backend="aot_eager")
def forward(params, x, cfg):
    h = x
    for w, k in zip(params[:-1], cfg.kernel_sizes):
        h = F.gelu(F.conv1d(h, w, padding=k // 2))
    return h.mean(-1) @ params[-1].T


x_train, y_train = torch.randn(64, 3, 50), torch.randint(0, 4, (64,))
x_val, y_val = torch.randn(32, 3, 50), torch.randint(0, 4, (32,))

for kernels in [(3, 3), (5, 3), (5, 5), (7, 3)]:
    cfg = ConvCfg(kernel_sizes=kernels)
    params = init_params(cfg)
    opt = torch.optim.Adam(params, lr=1e-2)
    for _ in range(5):
        loss = F.cross_entropy(forward(params, x_train, cfg), y_train)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = F.cross_entropy(forward(params, x_val, cfg), y_val)
    print(f"kernels {kernels} val loss {val.item():.4f}")
