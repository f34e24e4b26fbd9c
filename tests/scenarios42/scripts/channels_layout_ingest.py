"""Ingest image batches from several camera feeds with different memory layouts."""
import torch
import torch.nn as nn

torch.manual_seed(0)

FEEDS = ["rgb_nchw", "rgb_nhwc", "planar_chwn"]


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.proj = nn.Linear(8, 16)

    def forward(self, x):
        return self.proj(self.pool(torch.relu(self.conv(x))).flatten(1))


encoder = Encoder().eval()


@torch.compile(backend="aot_eager")
def embed(batch, channel_dim, batch_dim):
    x = torch.movedim(batch, (batch_dim, channel_dim), (0, 1)).float() / 255.0
    return encoder(x)


def read_feed(name):
    imgs = torch.randint(0, 256, (4, 3, 12, 12), dtype=torch.uint8)
    if name == "rgb_nchw":
        return imgs, 1, 0
    if name == "rgb_nhwc":
        return imgs.permute(0, 2, 3, 1).contiguous(), 3, 0
    return imgs.permute(1, 2, 3, 0).contiguous(), 0, 3


with torch.no_grad():
    for tick in range(3):
        for name in FEEDS:
            batch, cdim, bdim = read_feed(name)
            emb = embed(batch, cdim, bdim)
            print(tick, name, tuple(emb.shape), round(emb.norm().item(), 3))
