"""Super-resolution training with a scale curriculum.

Small ESPCN-style upscaler: a few convolutions produce scale**2 * 3 channels
and F.pixel_shuffle rearranges them into the high-resolution image. Training
starts at 2x (easier) and moves to 3x and then 4x; the scale is read from the
curriculum and passed to the step.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

MAX_SCALE = 4


class Upscaler(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 5, padding=2),
            nn.Tanh(),
            nn.Conv2d(width, width, 3, padding=1),
            nn.Tanh(),
        )
        # one head per scale so the weights stay shaped for each factor
        self.heads = nn.ModuleList(
            [nn.Conv2d(width, 3 * s * s, 3, padding=1) for s in range(1, MAX_SCALE + 1)]
        )

    def forward(self, lr, scale):
        h = self.features(lr)
        h = self.heads[scale - 1](h)
        return F.pixel_shuffle(h, scale)


model = Upscaler()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(lr, hr, scale):
    sr = model(lr, scale)
    loss = F.l1_loss(sr, hr)
    loss.backward()
    return loss


# (epochs, scale)
curriculum = [(2, 2), (2, 3), (2, 4)]
hr_size = 48

for n_epochs, scale in curriculum:
    lr_size = hr_size // scale
    for epoch in range(n_epochs):
        for _ in range(3):
            hr = torch.rand(4, 3, hr_size, hr_size)
            lr = F.interpolate(hr, size=(lr_size, lr_size), mode="bicubic", align_corners=False)
            opt.zero_grad()
            loss = train_step(lr, hr, scale)
            opt.step()
        print(f"x{scale} epoch {epoch} l1 {loss.item():.4f}")
