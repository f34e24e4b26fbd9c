"""Small LM with input/output embeddings tied; the shared embedding is kept
frozen for the first steps (warm start from a 'pretrained' table) and then
unfrozen for full training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D, SEQ = 100, 32, 20


class TiedLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, D)
        self.mix = nn.Conv1d(D, D, kernel_size=4, padding=3, groups=D)  # causal token mixing
        self.ff = nn.Sequential(nn.Linear(D, 2 * D), nn.GELU(), nn.Linear(2 * D, D))
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)
        self.lm_head.weight = self.wte.weight  # weight tying

    def forward(self, ids):
        x = self.wte(ids)
        h = x + self.mix(x.transpose(1, 2))[..., : ids.shape[1]].transpose(1, 2)
        h = h + self.ff(h)
        return self.lm_head(self.ln_f(h))


model = TiedLM()
with torch.no_grad():
    model.wte.weight.copy_(torch.randn(VOCAB, D) * 0.02)  # stand-in for a pretrained table
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)

FREEZE_STEPS = 3
model.wte.weight.requires_grad_(False)
for step in range(7):
    if step == FREEZE_STEPS:
        model.wte.weight.requires_grad_(True)
        print("unfreezing tied embedding")
    ids = torch.randint(0, VOCAB, (4, SEQ + 1))
    logits = compiled(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.3f}")
