import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

Z = 16


class Generator(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(Z, ch * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ch * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ch * 2, ch, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ch),
            nn.ReLU(True),
            nn.ConvTranspose2d(ch, 3, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z.view(z.shape[0], Z, 1, 1))


class Discriminator(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, ch, 4, 2, 1),
            nn.LeakyReLU(0.2, True),
            nn.Conv2d(ch, ch * 2, 4, 2, 1),
            nn.LeakyReLU(0.2, True),
            nn.Conv2d(ch * 2, 1, 4, 1, 0),
        )

    def forward(self, x):
        return self.net(x).view(-1)


G, D = Generator(), Discriminator()
G_c = torch.compile(G, backend="aot_eager")
D_c = torch.compile(D, backend="aot_eager")
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_data = torch.rand(64, 3, 16, 16) * 2 - 1
fixed_z = torch.randn(16, Z)

for epoch in range(3):
    for i in range(0, 64, 16):
        real = real_data[i : i + 16]
        z = torch.randn(16, Z)
        fake = G_c(z)
        d_loss = F.softplus(-D_c(real)).mean() + F.softplus(D_c(fake.detach())).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = F.softplus(-D_c(fake)).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
    # preview grid from fixed noise
    G.eval()
    with torch.no_grad():
        grid = G_c(fixed_z)
    G.train()
    print(f"epoch {epoch}: d {d_loss.item():.3f} g {g_loss.item():.3f} preview mean {grid.mean():.4f}")
