"""WaveNet-style next-sample prediction on mu-law companded audio. The
quantisation depth comes from the run config; the 8-bit stage is followed by
a 10-bit fine-tuning stage with a new output head."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def mulaw_encode(wave, quantization_channels):
    mu = quantization_channels - 1
    y = torch.sign(wave) * torch.log1p(mu * wave.abs()) / math.log1p(mu)
    return ((y + 1) / 2 * mu + 0.5).long().clamp(0, mu)


class TinyWaveNet(nn.Module):
    def __init__(self, n_classes, ch=32):
        super().__init__()
        self.embed = nn.Embedding(n_classes, ch)
        self.dilated = nn.ModuleList(
            [nn.Conv1d(ch, 2 * ch, 2, dilation=d) for d in (1, 2, 4)])
        self.out = nn.Conv1d(ch, n_classes, 1)

    def forward(self, codes):
        x = self.embed(codes).transpose(1, 2)
        for conv in self.dilated:
            h = conv(F.pad(x, (conv.dilation[0], 0)))
            a, b = h.chunk(2, dim=1)
            x = x + torch.tanh(a) * torch.sigmoid(b)
        return self.out(x)


wave = torch.tanh(torch.randn(8, 1025) * 0.3)
stages = [("8bit", 256, 6), ("10bit", 1024, 4)]
net = None
for name, q, steps in stages:
    body = None if net is None else {k: v for k, v in net.state_dict().items()
                                     if not k.startswith(("embed", "out"))}
    net = TinyWaveNet(q)
    if body is not None:
        net.load_state_dict(body, strict=False)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for s in range(steps):
        batch = wave[torch.randperm(8)[:4]] + 0.01 * torch.randn(4, 1025)
        codes = mulaw_encode(batch.clamp(-1, 1), q)
        logits = net(codes[:, :-1])
        loss = F.cross_entropy(logits, codes[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {name}: loss {loss.item():.3f}")
