import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConfiguredNet(nn.Module):
    """Unknown attribute names are looked up in self.cfg."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = dict(cfg)
        self.fc1 = nn.Linear(12, 32)
        self.fc2 = nn.Linear(32, 4)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            cfg = self.__dict__.get("cfg", {})
            if name in cfg:
                return cfg[name]
            raise

    def forward(self, x):
        h = F.leaky_relu(self.fc1(x), negative_slope=self.slope)
        h = F.dropout(h, p=self.drop, training=self.training)
        return self.fc2(h) / self.temperature


phases = [
    {"slope": 0.01, "drop": 0.0, "temperature": 1.0, "epochs": 2},
    {"slope": 0.01, "drop": 0.2, "temperature": 1.0, "epochs": 2},
    {"slope": 0.1, "drop": 0.2, "temperature": 2.0, "epochs": 2},
]

model = ConfiguredNet(phases[0])
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data = [(torch.randn(16, 12), torch.randint(0, 4, (16,))) for _ in range(4)]

for i, phase in enumerate(phases):
    model.cfg.update(phase)
    for epoch in range(phase["epochs"]):
        model.train()
        for x, y in data:
            loss = F.cross_entropy(step_fn(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"phase {i} cfg={model.cfg} loss={loss.item():.4f}")
