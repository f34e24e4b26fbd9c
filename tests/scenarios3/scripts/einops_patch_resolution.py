import torch
from einops import rearrange
from torch import nn

torch.manual_seed(0)


class TinyViT(nn.Module):
    def __init__(self, patch=4, dim=32, classes=10):
        super().__init__()
        self.patch = patch
        self.to_tokens = nn.Linear(3 * patch * patch, dim)
        self.mixer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.head = nn.Linear(dim, classes)

    def forward(self, img):
        p = self.patch
        patches = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=p, p2=p)
        tokens = self.mixer(self.to_tokens(patches))
        return self.head(tokens.mean(1))


model = TinyViT()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
# progressive resizing: low resolution first, then the full image size
for epoch, size in enumerate([16, 16, 24, 32]):
    imgs, labels = torch.randn(8, 3, size, size), torch.randint(0, 10, (8,))
    loss = nn.functional.cross_entropy(compiled(imgs), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} size {size} loss {loss.item():.4f}")
