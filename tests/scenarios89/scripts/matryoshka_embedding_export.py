"""Matryoshka image-text dual encoder: train, then export truncated embeddings.

The image tower is a timm ResNet built from scratch, the text tower a small
bag-of-tokens encoder. Training applies the contrastive loss at several
prefix sizes of the embedding; export writes one index per product tier,
each with its own embedding size.
"""
import timm
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, TXT_LEN, EMB = 300, 12, 64
NESTED = (64, 32, 16)
TIERS = {"full": 64, "balanced": 32, "mobile": 16}


class TextTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, 48, padding_idx=0)
        self.mlp = nn.Sequential(nn.Linear(48, 96), nn.GELU(), nn.Linear(96, EMB))

    def forward(self, ids):
        mask = (ids != 0).float().unsqueeze(-1)
        pooled = (self.tok(ids) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.mlp(pooled)


image_tower = timm.create_model("resnet10t", pretrained=False, num_classes=EMB)
text_tower = TextTower()
params = list(image_tower.parameters()) + list(text_tower.parameters())
opt = torch.optim.AdamW(params, lr=1e-3)


@torch.compile(backend="aot_eager")
def matryoshka_loss(images, ids):
    img = image_tower(images)
    txt = text_tower(ids)
    target = torch.arange(images.shape[0])
    loss = 0.0
    for d in NESTED:
        a = F.normalize(img[:, :d], dim=-1)
        b = F.normalize(txt[:, :d], dim=-1)
        logits = a @ b.t() / 0.07
        loss = loss + (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2
    return loss / len(NESTED)


@torch.compile(backend="aot_eager")
def export_embeddings(images, dim):
    emb = image_tower(images)[:, :dim]
    return F.normalize(emb, dim=-1).to(torch.float16)


def captions(n):
    ids = torch.randint(1, VOCAB, (n, TXT_LEN))
    lengths = torch.randint(4, TXT_LEN + 1, (n,))
    return ids * (torch.arange(TXT_LEN)[None, :] < lengths[:, None])


image_tower.train()
for step in range(5):
    loss = matryoshka_loss(torch.randn(16, 3, 32, 32), captions(16))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.3f}")

image_tower.eval()
catalogue = torch.randn(48, 3, 32, 32)
with torch.no_grad():
    for tier, dim in TIERS.items():
        chunks = [export_embeddings(catalogue[i:i + 16], dim) for i in range(0, 48, 16)]
        table = torch.cat(chunks)
        print(f"tier {tier}: exported {tuple(table.shape)} {table.dtype}")
