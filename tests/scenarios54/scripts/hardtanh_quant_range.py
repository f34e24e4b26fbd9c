import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

QUANT_CONFIGS = [
    {"name": "int8_sym", "min_val": -1.0, "max_val": 1.0, "levels": 255},
    {"name": "int4_sym", "min_val": -0.5, "max_val": 0.5, "levels": 15},
    {"name": "uint8_relu6", "min_val": 0.0, "max_val": 6.0, "levels": 255},
]


class QATBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim)
        self.fc2 = nn.Linear(dim, 10)

    def forward(self, x, min_val, max_val, levels):
        h = self.fc1(x)
        h = F.hardtanh(h, min_val=min_val, max_val=max_val)
        scale = (max_val - min_val) / (levels - 1)
        # straight-through fake quantisation
        q = torch.round((h - min_val) / scale) * scale + min_val
        h = h + (q - h).detach()
        return self.fc2(h)


model = QATBlock()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for cfg in QUANT_CONFIGS:
    for step in range(4):
        x = torch.randn(16, 32)
        y = torch.randint(0, 10, (16,))
        logits = step_fn(x, cfg["min_val"], cfg["max_val"], cfg["levels"])
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{cfg['name']}: loss={loss.item():.4f}")
