"""LM loss with an output z-loss (PaLM style) whose coefficient is switched on
after a warmup and then ramped; the coefficient is passed to the compiled
loss as a plain Python float."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D, SEQ = 128, 48, 24

model = nn.Sequential(
    nn.Embedding(VOCAB, D),
    nn.LayerNorm(D),
    nn.Linear(D, 2 * D),
    nn.SiLU(),
    nn.Linear(2 * D, VOCAB),
)


@torch.compile(backend="aot_eager")
def lm_loss(logits, targets, z_loss_coef):
    logits = logits.float()
    ce = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
    if z_loss_coef > 0:
        log_z = torch.logsumexp(logits, dim=-1)
        z = z_loss_coef * (log_z ** 2).mean()
        return ce + z, ce
    return ce, ce


def z_coef_for(step):
    if step < 3:
        return 0.0
    return 1e-4 if step < 6 else 2e-4


opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
for step in range(9):
    ids = torch.randint(0, VOCAB, (8, SEQ + 1))
    logits = model(ids[:, :-1])
    loss, ce = lm_loss(logits, ids[:, 1:], z_coef_for(step))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(f"step {step} loss {loss.item():.4f} ce {ce.item():.4f}")
