import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ShrinkageDenoiser(nn.Module):
    def __init__(self, n=64):
        super().__init__()
        self.analysis = nn.Linear(n, n, bias=False)
        self.synthesis = nn.Linear(n, n, bias=False)
        self.lambd = 0.5

    def set_noise_level(self, sigma):
        self.lambd = round(1.5 * sigma, 3)

    def forward(self, noisy):
        coeffs = self.analysis(noisy)
        coeffs = F.softshrink(coeffs, lambd=self.lambd)
        return self.synthesis(coeffs)


def make_signal(batch, n=64):
    t = torch.linspace(0, 1, n)
    freqs = torch.randint(1, 6, (batch, 1)).float()
    return torch.sin(2 * torch.pi * freqs * t)


model = ShrinkageDenoiser()
denoise = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for sigma in [0.1, 0.1, 0.25, 0.5, 0.1, 0.25]:
    model.set_noise_level(sigma)
    clean = make_signal(16)
    noisy = clean + sigma * torch.randn_like(clean)
    out = denoise(noisy)
    loss = F.mse_loss(out, clean)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"sigma={sigma} lambd={model.lambd} mse={loss.item():.4f}")
