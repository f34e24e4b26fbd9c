import torch
from torch import nn

torch.manual_seed(0)

CONFIG = {"label_smoothing": 0.0, "clip_logits": False}

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 6))
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def loss_fn(logits, target):
    if CONFIG["clip_logits"]:
        logits = logits.clamp(-5.0, 5.0)
    return nn.functional.cross_entropy(logits, target, label_smoothing=CONFIG["label_smoothing"])


for step in range(7):
    if step == 4:
        # recipe change halfway: turn on label smoothing and logit clipping
        CONFIG.update(label_smoothing=0.1, clip_logits=True)
    x, y = torch.randn(8, 16), torch.randint(0, 6, (8,))
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
