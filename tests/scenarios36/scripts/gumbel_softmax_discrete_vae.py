import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_LATENTS = 8
N_CATS = 10
EPOCHS = 6
STEPS = 4
TAU0, TAU_MIN, ANNEAL = 1.0, 0.5, 0.3
HARD_FROM = 4


class CategoricalVAE(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(dim, 128), nn.ReLU(), nn.Linear(128, N_LATENTS * N_CATS))
        self.dec = nn.Sequential(nn.Linear(N_LATENTS * N_CATS, 128), nn.ReLU(), nn.Linear(128, dim))

    def forward(self, x, tau, hard):
        logits = self.enc(x).view(-1, N_LATENTS, N_CATS)
        z = F.gumbel_softmax(logits, tau=tau, hard=hard, dim=-1)
        recon = self.dec(z.flatten(1))
        q = F.softmax(logits, dim=-1)
        kl = (q * (torch.log(q + 1e-10) + math.log(N_CATS))).sum((1, 2)).mean()
        rec = F.binary_cross_entropy_with_logits(recon, x, reduction="none").sum(1).mean()
        return rec + kl, rec, kl


def main():
    model = CategoricalVAE()
    cmodel = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = (torch.rand(EPOCHS * STEPS, 32, 64) > 0.5).float()

    i = 0
    for epoch in range(EPOCHS):
        tau = max(TAU_MIN, TAU0 * math.exp(-ANNEAL * epoch))
        hard = epoch >= HARD_FROM
        for _ in range(STEPS):
            loss, rec, kl = cmodel(data[i], tau, hard)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            i += 1
        print(f"epoch {epoch} tau={tau:.3f} hard={hard} loss={loss.item():.3f} rec={rec.item():.3f} kl={kl.item():.3f}")


if __name__ == "__main__":
    main()
