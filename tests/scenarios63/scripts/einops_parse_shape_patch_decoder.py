import torch
import torch.nn as nn
from einops import parse_shape, rearrange

torch.manual_seed(0)

PATCH = 4


class PatchAutoencoder(nn.Module):
    def __init__(self, ch=3, dim=32):
        super().__init__()
        self.encode = nn.Linear(ch * PATCH * PATCH, dim)
        self.mix = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
        self.decode = nn.Linear(dim, ch * PATCH * PATCH)

    def forward(self, images):
        grid = parse_shape(images, "_ _ h w")
        tokens = rearrange(images, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=PATCH, p2=PATCH)
        z = self.mix(self.encode(tokens))
        patches = self.decode(z)
        return rearrange(
            patches, "b (h w) (p1 p2 c) -> b c (h p1) (w p2)",
            h=grid["h"] // PATCH, w=grid["w"] // PATCH, p1=PATCH, p2=PATCH,
        )


model = PatchAutoencoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(images):
    recon = model(images)
    loss = nn.functional.mse_loss(recon, images)
    loss.backward()
    return loss


# photos come in a few aspect ratios; each batch is bucketed by size
buckets = [(16, 16), (16, 16), (16, 24), (24, 16), (16, 32), (16, 16)]
for it, (h, w) in enumerate(buckets):
    images = torch.rand(4, 3, h, w)
    shape = parse_shape(images, "b c h w")
    opt.zero_grad()
    loss = train_step(images)
    opt.step()
    print(f"step {it} shape={shape} loss={loss.item():.4f}")
