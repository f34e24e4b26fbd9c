"""Online continual learning of a sensor forecaster across regime shifts with a
reservoir-sampled replay buffer (experience replay)."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
WIN, BATCH, CAPACITY = 24, 16, 128


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(WIN, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Reservoir:
    def __init__(self, capacity):
        self.capacity, self.items, self.seen = capacity, [], 0

    def add(self, xs, ys):
        for x, y in zip(xs, ys):
            self.seen += 1
            if len(self.items) < self.capacity:
                self.items.append((x, y))
            else:
                j = random.randrange(self.seen)
                if j < self.capacity:
                    self.items[j] = (x, y)

    def sample(self, k):
        if not self.items:
            return None, None
        picked = random.sample(self.items, min(k, len(self.items)))
        return torch.stack([p[0] for p in picked]), torch.stack([p[1] for p in picked])


model = Forecaster()
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)


@torch.compile(backend="aot_eager")
def replay_loss(x, y, rx, ry):
    loss = F.mse_loss(model(x), y)
    if rx is not None:
        loss = loss + F.mse_loss(model(rx), ry)
    return loss


def regime_stream(task, n_batches):
    freq, level = [0.2, 0.5, 0.9, 1.4][task], [0.0, 1.0, -1.0, 2.0][task]
    for _ in range(n_batches):
        start = torch.rand(BATCH, 1) * 50
        steps = start + torch.arange(WIN + 1)
        s = level + torch.sin(freq * steps) + 0.05 * torch.randn(BATCH, WIN + 1)
        yield s[:, :WIN], s[:, WIN]


buffer = Reservoir(CAPACITY)
for task in range(4):
    for step, (x, y) in enumerate(regime_stream(task, 6)):
        rx, ry = buffer.sample(BATCH)
        loss = replay_loss(x, y, rx, ry)
        opt.zero_grad()
        loss.backward()
        opt.step()
        buffer.add(x, y)
    print(f"task {task} loss {loss.item():.4f} buffer {len(buffer.items)}")
