import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM, CTX = 64, 32, 16
SPECIALS = 4  # pad, bos, eos, mask rows appended to the embedding table


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB + SPECIALS, DIM)
        self.pos = nn.Parameter(torch.zeros(CTX, DIM))
        self.block = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))
        self.norm = nn.LayerNorm(DIM)
        self.lm_head = nn.Linear(DIM, VOCAB, bias=False)

    def forward(self, ids):
        h = self.embed(ids) + self.pos[: ids.shape[1]]
        h = h + self.block(h)
        return self.lm_head(self.norm(h))


def batches(n):
    g = torch.Generator().manual_seed(1)
    for _ in range(n):
        ids = torch.randint(0, VOCAB, (8, CTX + 1), generator=g)
        yield ids[:, :-1], ids[:, 1:]


model = TinyLM()
compiled = torch.compile(model, backend="aot_eager")


def make_opt():
    return torch.optim.AdamW(model.parameters(), lr=3e-3)


opt = make_opt()
TIE_AFTER = 4  # warm up an untied head first, then share it with the embedding

for step, (x, y) in enumerate(batches(12)):
    if step == TIE_AFTER:
        model.lm_head.weight = model.embed.weight
        opt = make_opt()
    logits = compiled(x)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f} tied={model.lm_head.weight is model.embed.weight}")

print("final loss", round(loss.item(), 4), "params", sum(p.numel() for p in model.parameters()))
