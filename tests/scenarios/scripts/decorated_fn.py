import torch
from torch import nn

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def smooth_ce(logits, target, smoothing):
    logp = logits.log_softmax(-1)
    nll = -logp.gather(-1, target[:, None]).squeeze(-1)
    return ((1 - smoothing) * nll - smoothing * logp.mean(-1)).mean()


model = nn.Linear(16, 10)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def train_epoch(epoch, smoothing):
    for _ in range(2):
        x, y = torch.randn(8, 16), torch.randint(0, 10, (8,))
        loss = smooth_ce(model(x), y, smoothing)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} smoothing {smoothing:.2f} loss {loss.item():.4f}")


for epoch in range(4):
    train_epoch(epoch, smoothing=0.2 / (epoch + 1))  # anneal label smoothing
