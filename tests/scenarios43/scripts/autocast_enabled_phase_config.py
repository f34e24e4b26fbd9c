import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass

torch.manual_seed(0)


@dataclass
class PhaseConfig:
    name: str
    epochs: int
    lr: float
    mixed_precision: bool


PHASES = [
    PhaseConfig("warmup", 1, 1e-3, False),
    PhaseConfig("main", 2, 3e-3, True),
    PhaseConfig("polish", 1, 5e-4, False),
]


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.mean(dim=(2, 3)))


model = ConvNet()
cmodel = torch.compile(model, backend="aot_eager")
data = torch.randn(64, 3, 16, 16)
labels = torch.randint(0, 5, (64,))

for phase in PHASES:
    opt = torch.optim.AdamW(model.parameters(), lr=phase.lr)
    for epoch in range(phase.epochs):
        for i in range(0, 64, 16):
            with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=phase.mixed_precision):
                logits = cmodel(data[i:i + 16])
            loss = F.cross_entropy(logits.float(), labels[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(phase.name, f"loss {loss.item():.4f}")
