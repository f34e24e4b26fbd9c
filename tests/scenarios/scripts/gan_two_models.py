import torch
from torch import nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16))
D = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
G_c = torch.compile(G, backend="aot_eager")
D_c = torch.compile(D, backend="aot_eager")
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
bce = nn.BCEWithLogitsLoss()


def set_requires_grad(net, flag):
    for p in net.parameters():
        p.requires_grad_(flag)


for step in range(3):
    real = torch.randn(16, 16)
    z = torch.randn(16, 8)
    fake = G_c(z)

    # discriminator step
    set_requires_grad(D, True)
    d_loss = bce(D_c(real), torch.ones(16, 1)) + bce(D_c(fake.detach()), torch.zeros(16, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # generator step: freeze D so only G gets gradients
    set_requires_grad(D, False)
    g_loss = bce(D_c(fake), torch.ones(16, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
