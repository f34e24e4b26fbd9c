import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8))


def run_epoch(epoch, lr):
    # a fresh optimizer per epoch, and a freshly compiled step for it
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    opt_step = torch.compile(opt.step, backend="aot_eager")
    for _ in range(2):
        x = torch.randn(16, 32)
        loss = model(x).pow(2).mean()
        loss.backward()
        opt_step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")


for epoch in range(10):
    run_epoch(epoch, lr=0.01)
