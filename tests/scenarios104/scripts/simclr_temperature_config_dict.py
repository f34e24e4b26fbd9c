# SimCLR pretraining with the NT-Xent loss. Hyperparameters live in a
# module-level config dict; a warm-up callback lowers the temperature
# `CONFIG["temperature"]` at the start of each epoch, and the compiled loss
# function reads it from the dict.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CONFIG = {"temperature": 0.5, "proj_dim": 16, "batch_size": 8, "lr": 3e-3}
TEMPERATURE_SCHEDULE = {0: 0.5, 1: 0.3, 2: 0.2}


class SimCLR(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.GroupNorm(4, 16), nn.SiLU(),
                                      nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.GroupNorm(4, 32), nn.SiLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, CONFIG["proj_dim"]))

    def forward(self, x):
        return self.projector(self.backbone(x))


@torch.compile(backend="aot_eager")
def nt_xent(z1, z2):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.shape[0]
    sim = z @ z.T / CONFIG["temperature"]
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def random_view(x):
    scale = torch.empty(x.shape[0], 1, 1, 1).uniform_(0.6, 1.4)
    x = (x * scale).clamp(0, 1)
    gray = x.mean(1, keepdim=True).expand_as(x)
    mix = (torch.rand(x.shape[0], 1, 1, 1) < 0.2).float()
    return mix * gray + (1 - mix) * x


def on_epoch_start(epoch):
    if epoch in TEMPERATURE_SCHEDULE:
        CONFIG["temperature"] = TEMPERATURE_SCHEDULE[epoch]


model = SimCLR()
opt = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
for epoch in range(3):
    on_epoch_start(epoch)
    for it in range(2):
        x = torch.rand(CONFIG["batch_size"], 3, 16, 16)
        loss = nt_xent(model(random_view(x)), model(random_view(x)))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} tau {CONFIG['temperature']} loss {loss.item():.4f}")
