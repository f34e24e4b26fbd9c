import torch
from torch import nn

torch.manual_seed(0)


class NoisyFeatures(nn.Module):
    """Adds feature noise while training, like a regularising augmentation."""

    def __init__(self, sigma=0.1):
        super().__init__()
        self.sigma = sigma

    def forward(self, x):
        if self.training:
            return x + self.sigma * torch.randn_like(x)
        return x


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(24, 48), nn.GELU())
        self.noise = NoisyFeatures()
        self.head = nn.Linear(48, 5)

    def forward(self, x):
        return self.head(self.noise(self.body(x)))


model = Classifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    model.train()
    for _ in range(2):
        x, y = torch.randn(16, 24), torch.randint(0, 5, (16,))
        loss = nn.functional.cross_entropy(compiled(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        xv = torch.randn(64, 24)  # bigger validation batch
        acc = compiled(xv).argmax(-1).eq(torch.randint(0, 5, (64,))).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} val {acc.item():.3f}")
