import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


def block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.GroupNorm(4, cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False),
        nn.GroupNorm(4, cout),
        nn.ReLU(inplace=True),
    )


class DepthUNet(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.enc1 = block(3, width)
        self.enc2 = block(width, width * 2)
        self.enc3 = block(width * 2, width * 4)
        self.up2 = nn.ConvTranspose2d(width * 4, width * 2, 3, stride=2, padding=1, output_padding=1)
        self.dec2 = block(width * 4, width * 2)
        self.up1 = nn.ConvTranspose2d(width * 2, width, 3, stride=2, padding=1, output_padding=1)
        self.dec1 = block(width * 2, width)
        self.head = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        e3 = self.enc3(F.max_pool2d(e2, 2))
        d2 = self.dec2(torch.cat([self.up2(e3), e2], dim=1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], dim=1))
        # predict log-depth, return metric depth
        return torch.exp(self.head(d1)).squeeze(1)


def silog_loss(pred, target, valid, variance_focus=0.85):
    m = valid.float()
    n = m.sum().clamp(min=1.0)
    d = (torch.log(pred) - torch.log(target)) * m
    mean_d = d.sum() / n
    return torch.sqrt((d ** 2).sum() / n - variance_focus * mean_d ** 2) * 10.0


def fake_batch(bs, h, w):
    img = torch.rand(bs, 3, h, w)
    yy = torch.linspace(0, 1, h).view(1, h, 1)
    depth = 1.0 + 9.0 * yy.expand(bs, h, w) + 0.1 * torch.rand(bs, h, w)
    return img, depth


model = DepthUNet()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)


@torch.compile(backend="aot_eager")
def train_step(img, depth):
    pred = model(img)
    valid = depth > 1.5
    loss = silog_loss(pred, depth, valid)
    loss.backward()
    return loss


# multi-scale training: every batch picks one of the training resolutions
sizes = [(64, 64), (96, 96), (64, 96), (128, 96), (96, 128)]
for step in range(10):
    h, w = random.choice(sizes)
    img, depth = fake_batch(4, h, w)
    opt.zero_grad()
    loss = train_step(img, depth)
    opt.step()
    print(f"step {step} size {h}x{w} silog {loss.item():.3f}")
