"""Point-cloud style coordinate features with a lazily filled grid cache.

Coordinate grids for each (height, width) are built once and kept in a
module-level dict so later batches of the same size reuse them. The
dataset mixes image sizes, so new sizes show up as training goes on.
"""

import torch
from torch import nn

torch.manual_seed(0)

_GRID_CACHE = {}


def coord_grid(h, w):
    key = (h, w)
    if key not in _GRID_CACHE:
        # pixel-centre coordinates in [-1, 1]
        ys = ((torch.arange(h) + 0.5) / h * 2 - 1).view(h, 1).expand(h, w)
        xs = ((torch.arange(w) + 0.5) / w * 2 - 1).view(1, w).expand(h, w)
        _GRID_CACHE[key] = torch.stack([xs, ys], 0)
    return _GRID_CACHE[key]


class CoordConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3 + 2, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1)
        self.head = nn.Linear(16, 5)

    def forward(self, img, grid):
        b = img.shape[0]
        x = torch.cat([img, grid.unsqueeze(0).expand(b, -1, -1, -1)], 1)
        x = torch.relu(self.conv2(torch.relu(self.conv1(x))))
        return self.head(x.mean((2, 3)))


model = CoordConvNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_loss(img, labels):
    h, w = img.shape[-2:]
    return nn.functional.cross_entropy(model(img, coord_grid(h, w)), labels)


sizes = [(32, 32), (32, 32), (24, 40), (32, 32), (48, 48), (24, 40)]
for step, (h, w) in enumerate(sizes):
    img = torch.randn(8, 3, h, w)
    labels = torch.randint(0, 5, (8,))
    loss = train_loss(img, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} {h}x{w} loss {loss.item():.3f} cached={len(_GRID_CACHE)}")
