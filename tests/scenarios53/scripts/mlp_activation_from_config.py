import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CONFIGS = [
    {"name": "mobile-s", "hidden": 48, "act": "hardswish"},
    {"name": "mobile-m", "hidden": 48, "act": "mish"},
    {"name": "mobile-l", "hidden": 48, "act": "hardswish"},
]


class Head(nn.Module):
    def __init__(self, hidden, act):
        super().__init__()
        self.act = act
        self.fc1 = nn.Linear(20, hidden)
        self.fc2 = nn.Linear(hidden, 5)


@torch.compile(backend="aot_eager")
def train_step(x, y, w1, b1, w2, b2, act):
    h = F.linear(x, w1, b1)
    if act == "hardswish":
        h = F.hardswish(h)
    elif act == "mish":
        h = F.mish(h)
    else:
        h = F.relu(h)
    logits = F.linear(h, w2, b2)
    return F.cross_entropy(logits, y)


def main():
    x = torch.randn(32, 20)
    y = torch.randint(0, 5, (32,))
    for cfg in CONFIGS:
        head = Head(cfg["hidden"], cfg["act"])
        opt = torch.optim.Adam(head.parameters(), lr=1e-2)
        for step in range(3):
            loss = train_step(x, y, head.fc1.weight, head.fc1.bias,
                              head.fc2.weight, head.fc2.bias, head.act)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(cfg["name"], round(loss.item(), 4))


if __name__ == "__main__":
    main()
