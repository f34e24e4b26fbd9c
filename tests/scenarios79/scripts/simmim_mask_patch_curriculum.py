"""SimMIM-style masked image modelling with a coarse-to-fine mask-patch curriculum."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IMG, PATCH = 32, 4


class SimMIM(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, PATCH, stride=PATCH)
        self.mask_token = nn.Parameter(torch.zeros(1, dim, 1, 1))
        self.encoder = nn.Sequential(
            nn.Conv2d(dim, dim, 3, padding=1), nn.GELU(), nn.Conv2d(dim, dim, 3, padding=1), nn.GELU()
        )
        self.decoder = nn.Conv2d(dim, PATCH * PATCH * 3, 1)

    def forward(self, img, mask, mask_patch):
        scale = mask_patch // PATCH
        mask = torch.kron(mask.to(img.dtype), torch.ones(scale, scale))
        x = self.embed(img)
        m = mask.unsqueeze(1).to(x.dtype)
        x = x * (1 - m) + self.mask_token * m
        rec = F.pixel_shuffle(self.decoder(self.encoder(x)), PATCH)
        pix_mask = torch.kron(mask, torch.ones(PATCH, PATCH)).unsqueeze(1)
        err = F.l1_loss(rec, img, reduction="none") * pix_mask
        return err.sum() / (pix_mask.sum() * 3 + 1e-5)


def random_mask(batch, mask_patch, ratio):
    grid = IMG // mask_patch
    n = grid * grid
    n_mask = int(round(n * ratio))
    ids = torch.rand(batch, n).argsort(dim=1)[:, :n_mask]
    return torch.zeros(batch, n).scatter_(1, ids, 1.0).view(batch, grid, grid).bool()


model = SimMIM()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

# (mask patch size, mask ratio) per stage
stages = [(16, 0.5), (8, 0.6), (8, 0.6), (4, 0.6)]
data = torch.randn(48, 3, IMG, IMG)
for epoch, (mask_patch, ratio) in enumerate(stages):
    for i in range(0, 48, 16):
        img = data[i:i + 16]
        mask = random_mask(img.shape[0], mask_patch, ratio)
        loss = step_fn(img, mask, mask_patch)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} patch {mask_patch} loss {loss.item():.4f}")
