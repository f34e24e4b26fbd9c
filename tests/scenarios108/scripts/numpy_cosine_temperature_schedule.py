# In-batch-negative training whose softmax temperature follows a cosine
# schedule computed with numpy, annealed from 0.1 to 0.02 over the first
# ANNEAL_STEPS steps and held at the floor afterwards.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

FEAT, DIM, STEPS, ANNEAL_STEPS = 40, 24, 8, 5
TAU_MAX, TAU_MIN = 0.1, 0.02


def tau_at(step):
    return TAU_MIN + 0.5 * (TAU_MAX - TAU_MIN) * (1 + np.cos(np.pi * step / ANNEAL_STEPS))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEAT, 64), nn.SiLU(), nn.Linear(64, DIM))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


query_enc, doc_enc = Encoder(), Encoder()
opt = torch.optim.Adam(list(query_enc.parameters()) + list(doc_enc.parameters()), lr=1e-3)


@torch.compile(backend="aot_eager")
def symmetric_info_nce(q, d, tau):
    logits = q @ d.T / tau
    target = torch.arange(q.shape[0])
    return 0.5 * (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target))


docs = torch.randn(256, FEAT)
queries = docs + 0.3 * torch.randn(256, FEAT)

for step in range(STEPS):
    idx = torch.randint(0, 256, (32,))
    tau = tau_at(step) if step < ANNEAL_STEPS else TAU_MIN
    loss = symmetric_info_nce(query_enc(queries[idx]), doc_enc(docs[idx]), tau)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} tau={tau:.4f} loss={loss.item():.4f}")
