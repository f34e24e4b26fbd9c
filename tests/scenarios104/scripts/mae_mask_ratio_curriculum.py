# MAE pretraining on a tiny ViT encoder/decoder. The masking ratio rises over
# epochs (0.5 -> 0.75 -> 0.9); the number of visible patches is computed in
# Python from the ratio and the random shuffle is done outside the compiled
# model, which receives the visible patch tokens and their indices.
import torch
import torch.nn as nn

torch.manual_seed(0)
PATCH, IMG, DIM = 4, 16, 32
N = (IMG // PATCH) ** 2


class TinyMAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(3 * PATCH * PATCH, DIM)
        self.pos = nn.Parameter(torch.randn(1, N, DIM) * 0.02)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(DIM, 4, 64, batch_first=True), 2)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, DIM))
        self.dec = nn.TransformerEncoderLayer(DIM, 4, 64, batch_first=True)
        self.pred = nn.Linear(DIM, 3 * PATCH * PATCH)

    def forward(self, visible, ids_keep, ids_restore):
        pos = self.pos.expand(visible.shape[0], -1, -1)
        pos_keep = torch.gather(pos, 1, ids_keep.unsqueeze(-1).expand(-1, -1, DIM))
        h = self.enc(self.embed(visible) + pos_keep)
        n_mask = N - h.shape[1]
        full = torch.cat([h, self.mask_token.expand(h.shape[0], n_mask, -1)], dim=1)
        full = torch.gather(full, 1, ids_restore.unsqueeze(-1).expand(-1, -1, DIM)) + self.pos
        return self.pred(self.dec(full))


def patchify(imgs):
    b = imgs.shape[0]
    x = imgs.reshape(b, 3, IMG // PATCH, PATCH, IMG // PATCH, PATCH)
    return x.permute(0, 2, 4, 1, 3, 5).reshape(b, N, -1)


model = TinyMAE()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for epoch, ratio in enumerate([0.5, 0.75, 0.9]):
    for it in range(2):
        patches = patchify(torch.rand(4, 3, IMG, IMG))
        len_keep = int(N * (1 - ratio))
        noise = torch.rand(4, N)
        ids_shuffle = noise.argsort(dim=1)
        ids_restore = ids_shuffle.argsort(dim=1)
        ids_keep = ids_shuffle[:, :len_keep]
        visible = torch.gather(patches, 1, ids_keep.unsqueeze(-1).expand(-1, -1, patches.shape[-1]))
        mask = torch.ones(4, N)
        mask[:, :len_keep] = 0
        mask = torch.gather(mask, 1, ids_restore)
        pred = cmodel(visible, ids_keep, ids_restore)
        loss = (((pred - patches) ** 2).mean(-1) * mask).sum() / mask.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} ratio {ratio} keep {len_keep} loss {loss.item():.4f}")
