"""Logging the true gradient norm while training with a GradScaler.

The loss is scaled by a GradScaler before backward, so the gradients the
optimizer sees are multiplied by the current scale. For the training
dashboard the user computes the unscaled gradient norm with a small compiled
helper, dividing by the scaler's current scale.
"""

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
# small growth interval so the scale settles quickly on this toy run
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**10, growth_interval=4)


@torch.compile(backend="aot_eager")
def grad_norm(grads, scale):
    total = torch.zeros(())
    for g in grads:
        total = total + (g.float() / scale).pow(2).sum()
    return total.sqrt()


x = torch.randn(256, 20)
y = torch.randint(0, 3, (256,))
loss_fn = nn.CrossEntropyLoss()

for step in range(12):
    opt.zero_grad(set_to_none=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = loss_fn(model(x), y)
    scaler.scale(loss).backward()
    norm = grad_norm([p.grad for p in model.parameters()], scaler.get_scale())
    scaler.step(opt)
    scaler.update()
    print(f"step {step:2d} loss {loss.item():.4f} grad norm {norm.item():.4f} scale {scaler.get_scale():.0f}")
