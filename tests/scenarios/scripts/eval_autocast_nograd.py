import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.LayerNorm(64), nn.GELU(), nn.Linear(64, 10))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


def evaluate():
    # validation in bf16 to save memory, no autograd
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        x, y = torch.randn(16, 32), torch.randint(0, 10, (16,))
        logits = compiled(x)
        return (logits.argmax(-1) == y).float().mean().item()


for epoch in range(2):
    for step in range(3):
        x, y = torch.randn(16, 32), torch.randint(0, 10, (16,))
        loss = nn.functional.cross_entropy(compiled(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f} val acc {evaluate():.3f}")
