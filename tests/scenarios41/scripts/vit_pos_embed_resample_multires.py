"""Small ViT encoder whose learned position table is resampled to the input grid."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from timm.layers import resample_abs_pos_embed

torch.manual_seed(0)


class TinyViT(nn.Module):
    def __init__(self, base_size=32, patch=8, dim=48, classes=6):
        super().__init__()
        self.patch = patch
        self.grid = (base_size // patch, base_size // patch)
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, 1 + self.grid[0] * self.grid[1], dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, 4, dim * 2, batch_first=True, dropout=0.0)
        self.blocks = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, classes)
        self.image_size = base_size

    def set_image_size(self, size):
        self.image_size = size

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        g = self.image_size // self.patch
        pos = resample_abs_pos_embed(self.pos_embed, new_size=(g, g), old_size=self.grid,
                                     num_prefix_tokens=1)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + pos
        x = self.blocks(x)
        return self.head(x[:, 0])


model = TinyViT()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
cmodel = torch.compile(model, backend="aot_eager")

# progressive resizing schedule from the experiment config
schedule = {"stage1": 32, "stage2": 48, "stage3": 64}
for epoch, (stage, size) in enumerate(list(schedule.items()) + [("finetune", 32)]):
    model.set_image_size(size)
    for step in range(2):
        images = torch.randn(4, 3, size, size)
        labels = torch.randint(0, 6, (4,))
        loss = F.cross_entropy(cmodel(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{stage} size {size} loss {loss.item():.3f}")
