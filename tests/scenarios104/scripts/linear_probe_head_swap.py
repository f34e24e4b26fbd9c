# Self-supervised pretraining with a projector head, then linear probing:
# the projector is replaced by a linear classifier, the backbone is frozen
# with requires_grad_(False) and put in eval mode (BatchNorm running stats),
# and the same compiled model object is trained on labels and evaluated.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 16))

    def forward(self, x):
        return self.head(self.backbone(x))


model = Net()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

# --- pretraining: VICReg-style invariance + variance terms on two views
for step in range(3):
    x = torch.rand(8, 3, 16, 16)
    z1 = cmodel(x + 0.1 * torch.randn_like(x))
    z2 = cmodel(x.flip(-1))
    inv = F.mse_loss(z1, z2)
    std = torch.sqrt(z1.var(0) + 1e-4)
    loss = inv + F.relu(1 - std).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"pretrain {step} loss {loss.item():.4f}")

# --- linear probe: swap the projector for a classifier, freeze the backbone
model.head = nn.Linear(32, 10)
model.backbone.requires_grad_(False)
model.backbone.eval()
probe_opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.rand(8, 3, 16, 16), torch.randint(0, 10, (8,))
    loss = F.cross_entropy(cmodel(x), y)
    probe_opt.zero_grad()
    loss.backward()
    probe_opt.step()
    print(f"probe {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    x, y = torch.rand(16, 3, 16, 16), torch.randint(0, 10, (16,))
    acc = (cmodel(x).argmax(1) == y).float().mean()
print(f"probe accuracy {acc.item():.3f}")
