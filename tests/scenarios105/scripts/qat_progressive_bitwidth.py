"""Quantisation-aware training with a progressive weight bit-width schedule.

Each QuantLinear fake-quantises its weight per output channel with
torch.fake_quantize_per_channel_affine. Scales and zero points come from a
torch.ao PerChannelMinMaxObserver and are refreshed (outside the compiled step)
every few steps; the bit width is lowered 8 -> 6 -> 4 over training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.ao.quantization.observer import PerChannelMinMaxObserver

torch.manual_seed(0)


class QuantLinear(nn.Linear):
    def __init__(self, d_in, d_out, bits=8):
        super().__init__(d_in, d_out)
        self.register_buffer("w_scale", torch.ones(d_out))
        self.register_buffer("w_zero_point", torch.zeros(d_out, dtype=torch.int32))
        self.set_bits(bits)

    def set_bits(self, bits):
        self.bits = bits
        self.quant_min = -(2 ** (bits - 1))
        self.quant_max = 2 ** (bits - 1) - 1
        self.update_qparams()

    @torch.no_grad()
    def update_qparams(self):
        obs = PerChannelMinMaxObserver(ch_axis=0, dtype=torch.qint8,
                                       qscheme=torch.per_channel_symmetric,
                                       quant_min=self.quant_min, quant_max=self.quant_max)
        obs(self.weight.detach())
        scale, zp = obs.calculate_qparams()
        self.w_scale.copy_(scale)
        self.w_zero_point.copy_(zp.to(torch.int32))

    def forward(self, x):
        w = torch.fake_quantize_per_channel_affine(
            self.weight, self.w_scale, self.w_zero_point, 0, self.quant_min, self.quant_max)
        return F.linear(x, w, self.bias)


model = nn.Sequential(QuantLinear(20, 64), nn.ReLU(), QuantLinear(64, 64), nn.ReLU(),
                      QuantLinear(64, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


@torch.compile(backend="aot_eager")
def train_step(x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    return loss


BITS = {0: 8, 2: 6, 4: 4}
xs, ys = torch.randn(192, 20), torch.randint(0, 3, (192,))
for epoch in range(6):
    if epoch in BITS:
        for m in model:
            if isinstance(m, QuantLinear):
                m.set_bits(BITS[epoch])
    total = 0.0
    for step, i in enumerate(range(0, 192, 64)):
        opt.zero_grad()
        loss = train_step(xs[i:i + 64], ys[i:i + 64])
        opt.step()
        if step % 2 == 1:
            for m in model:
                if isinstance(m, QuantLinear):
                    m.update_qparams()
        total += loss.item()
    print(f"epoch {epoch} bits {model[0].bits} loss {total / 3:.4f}")
