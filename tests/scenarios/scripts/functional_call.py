import torch
from torch import nn
from torch.func import functional_call

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))


def task_loss(params, x, y):
    return nn.functional.mse_loss(functional_call(model, params, (x,)), y)


compiled_loss = torch.compile(task_loss, backend="aot_eager")
meta_opt = torch.optim.SGD(model.parameters(), lr=0.01)

# MAML-style: adapt only the last layer in the inner loop
for task in range(3):
    x, y = torch.randn(16, 8), torch.randn(16, 1)
    params = dict(model.named_parameters())
    loss = compiled_loss(params, x, y)
    head = {k: v for k, v in params.items() if k.startswith("2.")}
    grads = torch.autograd.grad(loss, list(head.values()), retain_graph=True)  # first-order MAML
    fast = {k: v - 0.1 * g for (k, v), g in zip(head.items(), grads)}
    meta_loss = compiled_loss(fast, x, y)
    (loss + meta_loss).backward()
    meta_opt.step()
    meta_opt.zero_grad()
    print(f"task {task} loss {loss.item():.4f} adapted {meta_loss.item():.4f}")
