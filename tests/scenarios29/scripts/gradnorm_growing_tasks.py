"""Multi-task regression with GradNorm loss balancing.

New task heads are switched on as their labels become available, so the
balancing has to cope with a growing task list.
"""

import torch
from torch import nn

torch.manual_seed(0)

MAX_TASKS = 4


class Trunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.heads = nn.ModuleList(nn.Linear(64, 1) for _ in range(MAX_TASKS))

    def forward(self, x):
        return self.shared(x)


net = Trunk()
task_w = nn.Parameter(torch.ones(MAX_TASKS))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
w_opt = torch.optim.Adam([task_w], lr=1e-2)
ALPHA = 1.5


@torch.compile(backend="aot_eager")
def balance(losses, grad_norms, initial, weights):
    # losses / grad_norms / initial: one scalar per active task
    l = torch.stack(losses)
    g = torch.stack(grad_norms)
    ratio = l / torch.stack(initial)
    target = g.mean() * (ratio / ratio.mean()) ** ALPHA
    return (g - target.detach()).abs().sum(), (weights * l).sum()


initial_losses = []
last_layer = net.shared[2].weight
for step in range(9):
    active = min(MAX_TASKS, 2 + step // 3)
    x = torch.randn(64, 16)
    ys = [x[:, i : i + 4].sum(1, keepdim=True) * (i + 1) for i in range(active)]
    feats = net(x)
    losses = [nn.functional.mse_loss(net.heads[i](feats), ys[i]) for i in range(active)]
    while len(initial_losses) < active:
        initial_losses.append(losses[len(initial_losses)].detach())
    norms = []
    for i in range(active):
        g = torch.autograd.grad(task_w[i] * losses[i], last_layer, retain_graph=True, create_graph=True)[0]
        norms.append(g.norm())
    gn_loss, total = balance(losses, norms, initial_losses[:active], task_w[:active])
    opt.zero_grad()
    w_opt.zero_grad()
    total.backward(retain_graph=True)
    task_w.grad = torch.autograd.grad(gn_loss, task_w)[0]
    opt.step()
    w_opt.step()
    with torch.no_grad():
        task_w.mul_(MAX_TASKS / task_w.sum())
    print(f"step {step} tasks {active} loss {total.item():.3f}")
