import torch
from torch import nn
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)

# DP-SGD style training: per-example gradients, clipped, then averaged
model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 3))
params = {k: v.detach() for k, v in model.named_parameters()}


def example_loss(p, x, y):
    logits = functional_call(model, p, (x.unsqueeze(0),))
    return nn.functional.cross_entropy(logits, y.unsqueeze(0))


@torch.compile(backend="aot_eager")
def clipped_mean_grad(p, x, y, max_norm):
    per_example = vmap(grad(example_loss), in_dims=(None, 0, 0))(p, x, y)
    norms = torch.sqrt(sum(g.flatten(1).pow(2).sum(1) for g in per_example.values()))
    factor = (max_norm / (norms + 1e-6)).clamp(max=1.0)
    return {k: (g * factor.view(-1, *[1] * (g.dim() - 1))).mean(0) for k, g in per_example.items()}


data = torch.randn(70, 10)
labels = torch.randint(0, 3, (70,))
for epoch in range(2):
    if epoch == 1:  # newly collected examples join the training set
        data = torch.cat([data, torch.randn(11, 10)])
        labels = torch.cat([labels, torch.randint(0, 3, (11,))])
    for start in range(0, len(data), 32):  # batches of 32, 32, then 6 or 17
        g = clipped_mean_grad(params, data[start : start + 32], labels[start : start + 32], 1.0)
        params = {k: v - 0.1 * g[k] for k, v in params.items()}
    print(f"epoch {epoch} done")
