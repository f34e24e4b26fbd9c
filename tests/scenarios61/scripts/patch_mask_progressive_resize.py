import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

torch.manual_seed(0)


class PatchEncoder(nn.Module):
    def __init__(self, patch=4, dim=48, num_classes=6):
        super().__init__()
        self.patch = patch
        self.embed = nn.Linear(3 * patch * patch, dim)
        self.mix = nn.TransformerEncoderLayer(dim, 4, dim * 2, batch_first=True, dropout=0.0)
        self.head = nn.Linear(dim, num_classes)
        self.register_buffer("patch_mask", torch.ones(4, 4))

    def set_resolution(self, size):
        g = size // self.patch
        mask = torch.ones(g, g)
        mask[0, 0] = 0.0  # ignore the corner patch (watermark)
        self.register_buffer("patch_mask", mask)

    def forward(self, img):
        p = rearrange(img, "b c (h p1) (w p2) -> b (h w) (c p1 p2)", p1=self.patch, p2=self.patch)
        tok = self.mix(self.embed(p))
        w = self.patch_mask.flatten()
        pooled = (tok * w[None, :, None]).sum(1) / w.sum()
        return self.head(pooled)


model = PatchEncoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

# progressive resizing: small images first, full resolution at the end
for stage, size in enumerate([16, 24, 32]):
    model.set_resolution(size)
    for _ in range(3):
        x = torch.randn(8, 3, size, size)
        y = torch.randint(0, 6, (8,))
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage} size={size} loss={loss.item():.4f}")
