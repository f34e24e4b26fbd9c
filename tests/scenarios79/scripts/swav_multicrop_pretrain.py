"""SwAV-style pretraining on tiny random images with 2 global + 4 local crops."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

GLOBAL, LOCAL = 32, 16
N_PROTO = 16


class Encoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.proj = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, dim))
        self.prototypes = nn.Linear(dim, N_PROTO, bias=False)

    def forward(self, x):
        z = self.proj(self.features(x).flatten(1))
        z = F.normalize(z, dim=1)
        return self.prototypes(z)


def random_crop(img, size):
    b, _, h, w = img.shape
    i = int(torch.randint(0, h - size + 1, (1,)))
    j = int(torch.randint(0, w - size + 1, (1,)))
    out = img[:, :, i:i + size, j:j + size]
    if torch.rand(()) < 0.5:
        out = out.flip(-1)
    return out.contiguous()


@torch.no_grad()
def sinkhorn(scores, eps=0.05, iters=3):
    q = torch.exp(scores / eps).t()
    q /= q.sum()
    k, b = q.shape
    for _ in range(iters):
        q /= q.sum(dim=1, keepdim=True)
        q /= k
        q /= q.sum(dim=0, keepdim=True)
        q /= b
    return (q * b).t()


model = Encoder()
encode = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

data = torch.randn(64, 3, 40, 40)
for epoch in range(2):
    for step in range(0, 64, 16):
        imgs = data[step:step + 16]
        crops = [random_crop(imgs, GLOBAL) for _ in range(2)]
        crops += [random_crop(imgs, LOCAL) for _ in range(4)]
        scores = [encode(c) for c in crops]
        loss = 0.0
        for i in range(2):
            q = sinkhorn(scores[i].detach())
            for v, s in enumerate(scores):
                if v == i:
                    continue
                loss = loss - (q * F.log_softmax(s / 0.1, dim=1)).sum(1).mean()
        loss = loss / (2 * 5)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            w = model.prototypes.weight
            w.copy_(F.normalize(w, dim=1))
    print(f"epoch {epoch} loss {loss.item():.4f}")
