import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import spectral_norm

torch.manual_seed(0)

LATENT = 8
DATA = 16
EPOCHS = 3
STEPS = 4


def make_discriminator():
    return nn.Sequential(
        spectral_norm(nn.Linear(DATA, 64)),
        nn.LeakyReLU(0.2),
        spectral_norm(nn.Linear(64, 64)),
        nn.LeakyReLU(0.2),
        spectral_norm(nn.Linear(64, 1)),
    )


def make_generator():
    return nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, DATA))


def sample_real(n):
    # two Gaussian blobs in 16-d
    centers = torch.stack([torch.full((DATA,), 2.0), torch.full((DATA,), -2.0)])
    idx = torch.randint(0, 2, (n,))
    return centers[idx] + 0.3 * torch.randn(n, DATA)


def main():
    D = make_discriminator()
    G = make_generator()
    disc = torch.compile(D, backend="aot_eager")
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.0, 0.9))
    val_real = sample_real(64)
    val_z = torch.randn(64, LATENT)

    for epoch in range(EPOCHS):
        D.train()
        for _ in range(STEPS):
            real = sample_real(32)
            fake = G(torch.randn(32, LATENT))
            # hinge loss
            scores = disc(torch.cat([real, fake.detach()], 0))
            d_loss = torch.relu(1 - scores[:32]).mean() + torch.relu(1 + scores[32:]).mean()
            opt_d.zero_grad(set_to_none=True)
            d_loss.backward()
            opt_d.step()

            g_loss = -disc(G(torch.randn(64, LATENT))).mean()
            opt_g.zero_grad(set_to_none=True)
            g_loss.backward()
            opt_g.step()

        D.eval()
        with torch.no_grad():
            gap = disc(val_real).mean() - disc(G(val_z)).mean()
        print(f"epoch {epoch} d_loss={d_loss.item():.4f} g_loss={g_loss.item():.4f} val_gap={gap.item():.4f}")


if __name__ == "__main__":
    main()
