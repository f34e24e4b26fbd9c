"""Cross-batch memory (XBM) for metric learning: a FIFO of past embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_CLASSES, DIM, BATCH, MEM_BATCHES = 10, 24, 16, 5


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 48), nn.ReLU(), nn.Linear(48, 16))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


def contrastive(emb, labels, ref, ref_labels, pos_margin=0.9, neg_margin=0.4):
    sim = emb @ ref.t()
    pos = labels.unsqueeze(1) == ref_labels.unsqueeze(0)
    pos_loss = (F.relu(pos_margin - sim) * pos).sum() / pos.sum().clamp(min=1)
    neg_loss = (F.relu(sim - neg_margin) * ~pos).sum() / (~pos).sum().clamp(min=1)
    return pos_loss + neg_loss


@torch.compile(backend="aot_eager")
def xbm_loss(emb, labels, mem_feats, mem_labels):
    loss = contrastive(emb, labels, emb, labels)
    if mem_feats:
        ref = torch.stack(mem_feats).flatten(0, 1)
        ref_labels = torch.stack(mem_labels).flatten()
        loss = loss + contrastive(emb, labels, ref, ref_labels)
    return loss


model = Embedder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
centers = torch.randn(N_CLASSES, DIM)
memory_feats, memory_labels = [], []

for step in range(12):
    labels = torch.randint(0, N_CLASSES, (BATCH,))
    x = centers[labels] + 0.5 * torch.randn(BATCH, DIM)
    emb = model(x)
    loss = xbm_loss(emb, labels, memory_feats, memory_labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    # enqueue the detached batch, drop the oldest once full
    memory_feats.append(emb.detach())
    memory_labels.append(labels)
    if len(memory_feats) > MEM_BATCHES:
        memory_feats.pop(0)
        memory_labels.pop(0)
    print(f"step {step} mem {len(memory_feats)} loss {loss.item():.4f}")
