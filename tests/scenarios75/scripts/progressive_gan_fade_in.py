import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

Z = 32


class ProGenerator(nn.Module):
    def __init__(self, ch=32, max_depth=3):
        super().__init__()
        self.stem = nn.Sequential(nn.ConvTranspose2d(Z, ch, 4), nn.LeakyReLU(0.2))
        self.blocks = nn.ModuleList(
            [nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.LeakyReLU(0.2)) for _ in range(max_depth)]
        )
        self.to_rgb = nn.ModuleList([nn.Conv2d(ch, 3, 1) for _ in range(max_depth + 1)])

    def forward(self, z, depth, alpha):
        h = self.stem(z.view(-1, Z, 1, 1))
        if depth == 0:
            return self.to_rgb[0](h)
        for block in self.blocks[: depth - 1]:
            h = block(F.interpolate(h, scale_factor=2.0))
        up = F.interpolate(h, scale_factor=2.0)
        new = self.to_rgb[depth](self.blocks[depth - 1](up))
        old = self.to_rgb[depth - 1](up)
        return alpha * new + (1 - alpha) * old


class ProCritic(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.from_rgb = nn.Conv2d(3, ch, 1)
        self.head = nn.Linear(ch, 1)

    def forward(self, x):
        h = F.leaky_relu(self.from_rgb(x), 0.2)
        return self.head(h.mean((2, 3))).view(-1)


G, D = ProGenerator(), ProCritic()
G_c = torch.compile(G, backend="aot_eager")
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.99))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.99))
STEPS_PER_STAGE = 4

for depth in range(3):
    res = 4 * 2 ** depth
    for step in range(STEPS_PER_STAGE):
        alpha = min(1.0, (step + 1) / (STEPS_PER_STAGE / 2)) if depth > 0 else 1.0
        real = torch.rand(8, 3, res, res) * 2 - 1
        fake = G_c(torch.randn(8, Z), depth, alpha)
        d_loss = F.relu(1 - D(real)).mean() + F.relu(1 + D(fake.detach())).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = -D(fake).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
    print(f"stage {depth} ({res}px): d {d_loss.item():.3f} g {g_loss.item():.3f}")
