"""GLU-MLP language model trained in fp32; every epoch validation perplexity
is measured under CPU bfloat16 autocast, as it will be run in deployment."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D, SEQ = 96, 32, 16


class SwiGLU(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w12 = nn.Linear(d, 2 * hidden, bias=False)
        self.w3 = nn.Linear(hidden, d, bias=False)

    def forward(self, x):
        a, b = self.w12(x).chunk(2, dim=-1)
        return self.w3(F.silu(a) * b)


class GluLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.norm = nn.RMSNorm(D)
        self.mlp = SwiGLU(D, 64)
        self.head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, ids, targets):
        h = self.emb(ids)
        h = h + self.mlp(self.norm(h))
        logits = self.head(h)
        return F.cross_entropy(logits.float().reshape(-1, VOCAB), targets.reshape(-1))


model = GluLM()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
val = torch.randint(0, VOCAB, (8, SEQ + 1))

for epoch in range(3):
    model.train()
    for _ in range(3):
        ids = torch.randint(0, VOCAB, (8, SEQ + 1))
        loss = compiled(ids[:, :-1], ids[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        val_loss = compiled(val[:, :-1], val[:, 1:])
    print(f"epoch {epoch} train {loss.item():.3f} val ppl {math.exp(val_loss.item()):.1f}")
