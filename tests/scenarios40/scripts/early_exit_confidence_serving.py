import torch
import torch.nn as nn

torch.manual_seed(0)


class EarlyExitNet(nn.Module):
    def __init__(self, dim=16, hidden=48, classes=4):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU())
        self.exit1 = nn.Linear(hidden, classes)
        self.block2 = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.exit2 = nn.Linear(hidden, classes)

    def forward(self, x, threshold):
        h = self.block1(x)
        early = self.exit1(h).softmax(-1)
        conf = early.max(-1).values.min().item()
        if conf >= threshold:
            return early, 1
        h = self.block2(h)
        return self.exit2(h).softmax(-1), 2


model = EarlyExitNet().eval()
serve = torch.compile(model, backend="aot_eager")

TIERS = {"fast": 0.3, "balanced": 0.5, "accurate": 0.8}
requests = [
    ("balanced", 4), ("balanced", 4), ("fast", 4), ("balanced", 4),
    ("accurate", 4), ("fast", 4), ("accurate", 4), ("balanced", 4),
]

exits = []
with torch.no_grad():
    for tier, n in requests:
        x = torch.randn(n, 16)
        probs, depth = serve(x, TIERS[tier])
        exits.append(depth)
        print(tier, depth, probs.argmax(-1).tolist())
print("exit histogram", {d: exits.count(d) for d in set(exits)})
