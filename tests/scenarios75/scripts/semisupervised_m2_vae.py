import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

X, Y, ZD = 32, 4, 6


class M2VAE(nn.Module):
    """Kingma et al. M2: q(y|x), q(z|x,y), p(x|y,z)."""

    def __init__(self, h=64):
        super().__init__()
        self.classifier = nn.Sequential(nn.Linear(X, h), nn.ReLU(), nn.Linear(h, Y))
        self.enc = nn.Sequential(nn.Linear(X + Y, h), nn.ReLU(), nn.Linear(h, 2 * ZD))
        self.dec = nn.Sequential(nn.Linear(ZD + Y, h), nn.ReLU(), nn.Linear(h, X))

    def elbo(self, x, y1h):
        mu, logvar = self.enc(torch.cat([x, y1h], -1)).chunk(2, -1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        recon = self.dec(torch.cat([z, y1h], -1))
        rec = F.binary_cross_entropy_with_logits(recon, x, reduction="none").sum(-1)
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1)
        return -(rec + kl)

    def forward(self, x, y=None, alpha=10.0):
        logits = self.classifier(x)
        if y is not None:
            y1h = F.one_hot(y, Y).float()
            return -self.elbo(x, y1h).mean() + alpha * F.cross_entropy(logits, y)
        # unlabeled: marginalise over every class
        q = logits.softmax(-1)
        xs = x.repeat_interleave(Y, 0)
        ys = torch.eye(Y).repeat(x.shape[0], 1)
        elbos = self.elbo(xs, ys).view(x.shape[0], Y)
        ent = -(q * torch.log(q + 1e-8)).sum(-1)
        return -((q * elbos).sum(-1) + ent).mean()


model = M2VAE()
model_c = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
labeled_x = (torch.rand(64, X) > 0.5).float()
labeled_y = torch.randint(0, Y, (64,))
unlabeled_x = (torch.rand(256, X) > 0.5).float()

for epoch in range(2):
    for step in range(4):
        lx = labeled_x[step * 16 : (step + 1) * 16]
        ly = labeled_y[step * 16 : (step + 1) * 16]
        ux = unlabeled_x[step * 16 : (step + 1) * 16]
        for xb, yb in ((lx, ly), (ux, None)):
            loss = model_c(xb, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"epoch {epoch}: loss {loss.item():.3f}")
