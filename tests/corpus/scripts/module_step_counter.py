import torch
from torch import nn

torch.manual_seed(0)


class NoisyStudent(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
        self.step = 0

    def forward(self, x):
        self.step += 1
        noise_scale = 0.1 / self.step  # anneal the input noise
        return self.net(x + noise_scale * torch.randn_like(x))


model = NoisyStudent()
compiled = torch.compile(model, backend="aot_eager")

for step in range(10):
    x = torch.randn(8, 16)
    loss = compiled(x).pow(2).mean()
    loss.backward()
    print(f"step {step} loss {loss.item():.4f}")
