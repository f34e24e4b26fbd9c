"""Sweep the strength of a LoRA adapter on a small regression MLP."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from peft.tuners.lora import LoraLayer

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 64)
        self.fc2 = nn.Linear(64, 64)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        h = F.gelu(self.fc2(h))
        return self.out(h).squeeze(-1)


base = Regressor()
config = LoraConfig(r=4, lora_alpha=8, target_modules=["fc1", "fc2"], lora_dropout=0.0)
model = get_peft_model(base, config)
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)

x = torch.randn(128, 16)
y = x[:, :4].sum(-1) + 0.1 * torch.randn(128)
xv = torch.randn(64, 16)
yv = xv[:, :4].sum(-1)


def train_step(xb, yb):
    pred = model(xb)
    loss = F.mse_loss(pred, yb)
    loss.backward()
    return loss


@torch.compile(backend="aot_eager")
def val_loss(xb, yb):
    return F.mse_loss(model(xb), yb)


for step in range(0, 128, 32):
    opt.zero_grad()
    loss = train_step(x[step:step + 32], y[step:step + 32])
    opt.step()

model.eval()
results = {}
for strength in [1.0, 0.5, 0.25, 0.0, 1.0]:
    for module in model.modules():
        if isinstance(module, LoraLayer):
            module.set_scale("default", strength)
    with torch.no_grad():
        results[strength] = val_loss(xv, yv).item()
    print(f"lora strength {strength}: val mse {results[strength]:.4f}")
