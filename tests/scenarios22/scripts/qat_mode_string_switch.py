"""Quantisation-aware fine-tuning with a calibrate phase and a deploy check.

Each FakeQuant layer has a `mode`: "calibrate" records the activation range,
"train" fake-quantises with a straight-through estimator, "deploy" rounds
without the STE. The loop switches every layer's mode between phases.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class FakeQuant(nn.Module):
    def __init__(self, bits=8):
        super().__init__()
        self.mode = "calibrate"
        self.levels = 2 ** bits - 1
        self.register_buffer("lo", torch.tensor(0.0))
        self.register_buffer("hi", torch.tensor(1.0))

    def forward(self, x):
        if self.mode == "calibrate":
            self.lo.copy_(torch.minimum(self.lo, x.detach().min()))
            self.hi.copy_(torch.maximum(self.hi, x.detach().max()))
            return x
        scale = (self.hi - self.lo) / self.levels
        q = torch.round((x.clamp(self.lo, self.hi) - self.lo) / scale) * scale + self.lo
        if self.mode == "train":
            return x + (q - x).detach()  # straight-through
        return q


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.q1 = FakeQuant()
        self.fc2 = nn.Linear(64, 5)
        self.q2 = FakeQuant()

    def forward(self, x):
        return self.q2(self.fc2(self.q1(F.relu(self.fc1(x)))))


def set_mode(model, mode):
    for m in model.modules():
        if isinstance(m, FakeQuant):
            m.mode = mode


model = Net()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

phases = [("calibrate", 3), ("train", 5), ("deploy", 2), ("train", 3)]
for mode, n_steps in phases:
    set_mode(model, mode)
    for step in range(n_steps):
        x, y = torch.randn(32, 20), torch.randint(0, 5, (32,))
        if mode == "deploy":
            with torch.no_grad():
                acc = (cmodel(x).argmax(1) == y).float().mean()
            print(f"deploy acc {acc.item():.3f}")
            continue
        with torch.set_grad_enabled(mode == "train"):
            loss = F.cross_entropy(cmodel(x), y)
        if mode == "train":
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"phase {mode} done")
