"""Switch-transformer style router with multiplicative jitter noise and
capacity-based token dropping during training; evaluation keeps every token
and runs under torch.inference_mode after each epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D, E, CLASSES = 32, 4, 5


class DroppingSwitch(nn.Module):
    def __init__(self, capacity_factor=1.0, jitter=0.01):
        super().__init__()
        self.router = nn.Linear(D, E, bias=False)
        self.w1 = nn.Parameter(torch.randn(E, D, 64) * 0.1)
        self.w2 = nn.Parameter(torch.randn(E, 64, D) * 0.1)
        self.capacity_factor = capacity_factor
        self.jitter = jitter

    def forward(self, x):
        t = x.size(0)
        if self.training:
            noise = torch.empty_like(x).uniform_(1 - self.jitter, 1 + self.jitter)
            probs = self.router(x * noise).softmax(-1)
        else:
            probs = self.router(x).softmax(-1)
        gate, expert = probs.max(-1)
        onehot = F.one_hot(expert, E).to(x.dtype)
        if self.training:
            # position of each token in its expert's queue; drop overflow
            capacity = int(self.capacity_factor * t / E)
            pos = torch.cumsum(onehot, dim=0) * onehot
            onehot = onehot * (pos <= capacity).to(x.dtype)
        h = torch.einsum("te,td,edh->teh", onehot, x, self.w1)
        y = torch.einsum("teh,ehd->td", F.relu(h), self.w2)
        return x + gate.unsqueeze(-1) * y


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(12, D)
        self.moe = DroppingSwitch()
        self.out = nn.Linear(D, CLASSES)

    def forward(self, x):
        return self.out(self.moe(torch.relu(self.inp(x))))


net = Net()
model = torch.compile(net, backend="aot_eager")
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
val_x, val_y = torch.randn(128, 12), torch.randint(0, CLASSES, (128,))

for epoch in range(3):
    net.train()
    for _ in range(3):
        x, y = torch.randn(128, 12), torch.randint(0, CLASSES, (128,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    with torch.inference_mode():
        acc = (model(val_x).argmax(-1) == val_y).float().mean().item()
    print(f"epoch {epoch} loss={loss.item():.4f} val_acc={acc:.3f}")
