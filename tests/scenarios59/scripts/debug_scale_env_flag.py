import os

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, d_in=16, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        if os.environ.get("REG_DEBUG_SCALE", "0") == "1":
            # scale activations down while we inspect them
            h = h * 0.1
        return self.fc2(h).squeeze(-1)


model = Regressor()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)

w_true = torch.randn(16)


def batch(n=32):
    x = torch.randn(n, 16)
    return x, x @ w_true + 0.1 * torch.randn(n)


def run_phase(name, steps):
    for step in range(steps):
        x, y = batch()
        loss = F.mse_loss(cmodel(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name}: loss={loss.item():.4f}")


os.environ["REG_DEBUG_SCALE"] = "0"
run_phase("warmup", 4)

os.environ["REG_DEBUG_SCALE"] = "1"
run_phase("debug", 3)

os.environ["REG_DEBUG_SCALE"] = "0"
run_phase("main", 4)

os.environ["REG_DEBUG_SCALE"] = "1"
run_phase("debug-final", 2)
