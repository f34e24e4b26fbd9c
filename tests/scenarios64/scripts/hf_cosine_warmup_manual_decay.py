import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import get_cosine_schedule_with_warmup

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 5))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = get_cosine_schedule_with_warmup(opt, num_warmup_steps=3, num_training_steps=12)


@torch.compile(backend="aot_eager")
def loss_with_decay(logits, targets, params, lr, weight_decay):
    ce = F.cross_entropy(logits, targets)
    reg = sum((p * p).sum() for p in params)
    return ce + 0.5 * lr * weight_decay * reg


data = torch.randn(12, 32, 20)
labels = torch.randint(0, 5, (12, 32))
for step in range(12):
    lr = scheduler.get_last_lr()[0]
    logits = model(data[step])
    loss = loss_with_decay(logits, labels[step], list(model.parameters()), lr, 0.01)
    opt.zero_grad()
    loss.backward()
    opt.step()
    scheduler.step()
    print(step, f"lr={lr:.4f}", round(loss.item(), 4))
