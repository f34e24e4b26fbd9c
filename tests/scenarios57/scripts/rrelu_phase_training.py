import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RReLUNet(nn.Module):
    def __init__(self, d_in=16, hidden=32, n_out=3):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, n_out)

    def forward(self, x, lower, upper, training):
        h = F.rrelu(self.fc1(x), lower=lower, upper=upper, training=training)
        h = F.rrelu(self.fc2(h), lower=lower, upper=upper, training=training)
        return self.out(h)


model = RReLUNet()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

PHASES = [
    {"name": "warmup", "lower": 1 / 8, "upper": 1 / 3, "epochs": 2},
    {"name": "main", "lower": 1 / 10, "upper": 1 / 4, "epochs": 2},
]

val_x = torch.randn(64, 16)
val_y = torch.randint(0, 3, (64,))

for phase in PHASES:
    for epoch in range(phase["epochs"]):
        for _ in range(3):
            x = torch.randn(32, 16)
            y = torch.randint(0, 3, (32,))
            logits = cmodel(x, phase["lower"], phase["upper"], True)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            val = F.cross_entropy(cmodel(val_x, phase["lower"], phase["upper"], False), val_y)
        print(f"{phase['name']} epoch {epoch}: train {loss.item():.4f} val {val.item():.4f}")
