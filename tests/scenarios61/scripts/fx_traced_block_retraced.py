import torch
import torch.nn as nn
import torch.fx
import torch.nn.functional as F

torch.manual_seed(0)


class Config:
    act = "relu"
    use_skip = True


cfg = Config()


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * 2)
        self.fc2 = nn.Linear(dim * 2, dim)

    def forward(self, x):
        h = self.fc1(self.norm(x))
        h = F.gelu(h) if cfg.act == "gelu" else F.relu(h)
        h = self.fc2(h)
        return x + h if cfg.use_skip else h


class Net(nn.Module):
    def __init__(self, dim=32, depth=2, num_classes=4):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])
        self.out = nn.Linear(dim, num_classes)

    def forward(self, x):
        return self.out(self.blocks(x))


model = Net()


def train_step(gm, x, y):
    loss = F.cross_entropy(gm(x), y)
    loss.backward()
    return loss.detach()


step = torch.compile(train_step, backend="aot_eager")

for phase, act in enumerate(["relu", "gelu"]):
    cfg.act = act
    gm = torch.fx.symbolic_trace(model)
    opt = torch.optim.Adam(gm.parameters(), lr=1e-3)
    for i in range(3):
        x = torch.randn(16, 32)
        y = torch.randint(0, 4, (16,))
        opt.zero_grad()
        loss = step(gm, x, y)
        opt.step()
    print(f"phase {phase} act={act} nodes={len(gm.graph.nodes)} loss={loss.item():.4f}")
