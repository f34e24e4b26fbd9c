"""Small WaveNet-style temporal convolution network for next-sample
prediction on synthetic audio. The causal dilated convolution shared by all
residual layers is compiled once."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def causal_dilated_conv(x, weight, bias, dilation):
    k = weight.shape[-1]
    x = F.pad(x, ((k - 1) * dilation, 0))
    return F.conv1d(x, weight, bias, dilation=dilation)


causal_conv = torch.compile(causal_dilated_conv, backend="aot_eager")


class ResidualLayer(nn.Module):
    def __init__(self, channels, dilation, kernel_size=2):
        super().__init__()
        self.dilation = dilation
        self.filt = nn.Conv1d(channels, 2 * channels, kernel_size)
        self.res = nn.Conv1d(channels, channels, 1)
        self.skip = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        h = causal_conv(x, self.filt.weight, self.filt.bias, self.dilation)
        a, b = h.chunk(2, dim=1)
        z = torch.tanh(a) * torch.sigmoid(b)
        return x + self.res(z), self.skip(z)


class TinyWaveNet(nn.Module):
    def __init__(self, channels=16, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.inp = nn.Conv1d(1, channels, 1)
        self.layers = nn.ModuleList(ResidualLayer(channels, d) for d in dilations)
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(channels, 1, 1))

    def forward(self, wav):
        x = self.inp(wav)
        skips = 0
        for layer in self.layers:
            x, s = layer(x)
            skips = skips + s
        return self.out(skips)


def synth_audio(batch, length):
    t = torch.arange(length).float()
    freq = torch.rand(batch, 1) * 0.2 + 0.05
    return (torch.sin(freq * t) + 0.05 * torch.randn(batch, length)).unsqueeze(1)


model = TinyWaveNet()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(10):
    wav = synth_audio(8, 128)
    pred = model(wav[:, :, :-1])
    loss = F.mse_loss(pred, wav[:, :, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.4f}")
