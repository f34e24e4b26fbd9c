import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

N_ANT = 8
N_SAMP = 64


class Beamformer(nn.Module):
    def __init__(self, n_ant, n_beams):
        super().__init__()
        angles = torch.linspace(-1.0, 1.0, n_beams)
        k = torch.arange(n_ant).float()
        phase = torch.pi * torch.sin(angles)[:, None] * k[None, :]
        self.register_buffer("steer", torch.exp(1j * phase).to(torch.complex64))
        self.head = nn.Linear(2 * n_beams, 4)

    def forward(self, iq):
        # iq: (batch, antennas, samples) complex
        beams = self.steer.to(iq.dtype) @ iq
        power = beams.abs().pow(2).mean(-1)
        feats = torch.view_as_real(beams.mean(-1)).flatten(1)
        feats = feats / (power.sum(-1, keepdim=True).sqrt() + 1e-6)
        return self.head(feats.float())


def recorded_capture(n):
    x = torch.randn(n, N_ANT, N_SAMP, dtype=torch.complex64)
    return x


def simulated_capture(n):
    # calibration bursts synthesised with numpy
    t = np.arange(N_SAMP)
    tone = np.exp(2j * np.pi * 0.05 * t)
    ant = np.exp(1j * np.pi * 0.3 * np.arange(N_ANT))[:, None]
    noise = rng.standard_normal((n, N_ANT, N_SAMP)) + 1j * rng.standard_normal((n, N_ANT, N_SAMP))
    return torch.as_tensor(ant * tone + 0.1 * noise)


model = Beamformer(N_ANT, 6).eval()
classify = torch.compile(model, backend="aot_eager")

stream = ["rec", "rec", "sim", "rec", "sim", "rec"]
with torch.no_grad():
    for i, src in enumerate(stream):
        iq = recorded_capture(4) if src == "rec" else simulated_capture(4)
        logits = classify(iq)
        print(i, src, iq.dtype, logits.argmax(-1).tolist())
