import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiViewEncoder(nn.Module):
    def __init__(self, dim=32, out=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.proj_text = nn.Linear(dim, out)
        self.proj_image = nn.Linear(dim, out)
        self.proj_audio = nn.Linear(dim, out)

    def forward(self, x, view: str):
        h = self.backbone(x)
        proj = getattr(self, f"proj_{view}")
        return F.normalize(proj(h), dim=-1)


model = MultiViewEncoder()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def contrastive(a, b, temp=0.1):
    logits = a @ b.t() / temp
    target = torch.arange(a.shape[0])
    return F.cross_entropy(logits, target)


pairs = [("text", "image"), ("text", "audio"), ("image", "audio")]

for epoch in range(2):
    for va, vb in pairs:
        x = torch.randn(16, 32)
        xa = x + 0.05 * torch.randn_like(x)
        xb = x + 0.05 * torch.randn_like(x)
        loss = contrastive(cmodel(xa, va), cmodel(xb, vb))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: loss={loss.item():.4f}")
