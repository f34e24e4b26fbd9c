# GradCache-style contrastive training: embeddings for a large batch are
# first computed chunk by chunk without autograd, the loss gradient w.r.t.
# the embeddings is cached, then each chunk is re-encoded with autograd and
# the cached gradient is back-propagated through it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FEAT, DIM, BIG_BATCH, CHUNK = 32, 16, 64, 16


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(FEAT, 64), nn.LayerNorm(64), nn.ReLU(), nn.Linear(64, DIM))

    def forward(self, x):
        return F.normalize(self.body(x), dim=-1)


encoder = Encoder()
compiled_encoder = torch.compile(encoder, backend="aot_eager")
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)


def contrastive(q, d):
    return F.cross_entropy(q @ d.T / 0.05, torch.arange(q.shape[0]))


def gradcache_step(queries, docs):
    # pass 1: representations without a graph
    with torch.no_grad():
        q_reps = torch.cat([compiled_encoder(c) for c in queries.split(CHUNK)])
        d_reps = torch.cat([compiled_encoder(c) for c in docs.split(CHUNK)])
    q_reps.requires_grad_(True)
    d_reps.requires_grad_(True)
    loss = contrastive(q_reps, d_reps)
    loss.backward()
    q_grads, d_grads = q_reps.grad.split(CHUNK), d_reps.grad.split(CHUNK)
    # pass 2: re-encode each chunk with a graph and push the cached gradient
    for chunk, g in zip(queries.split(CHUNK), q_grads):
        torch.autograd.backward(compiled_encoder(chunk), g)
    for chunk, g in zip(docs.split(CHUNK), d_grads):
        torch.autograd.backward(compiled_encoder(chunk), g)
    return loss.detach()


docs = torch.randn(512, FEAT)
queries = docs + 0.5 * torch.randn(512, FEAT)
for step in range(3):
    idx = torch.randperm(512)[:BIG_BATCH]
    opt.zero_grad()
    loss = gradcache_step(queries[idx], docs[idx])
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
