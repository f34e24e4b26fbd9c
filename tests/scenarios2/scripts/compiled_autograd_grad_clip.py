import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)
backward_compiler = torch.compile(backend="aot_eager")

data = torch.randn(60, 16)
labels = torch.randint(0, 4, (60,))
clip_hooks = []
for epoch in range(2):
    if epoch == 1:
        # gradients got noisy: clamp them as they are produced
        for p in model.parameters():
            clip_hooks.append(p.register_hook(lambda g: g.clamp(-0.1, 0.1)))
    for start in range(0, 60, 16):  # the last batch has 12 rows
        x, y = data[start : start + 16], labels[start : start + 16]
        loss = nn.functional.cross_entropy(compiled(x), y)
        # compiled autograd: trace the whole backward, hooks included, into one graph
        with torch._dynamo.compiled_autograd._enable(backward_compiler):
            loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
