import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1, stride=2)

    def forward(self, x):
        return F.relu(self.conv2(F.relu(self.conv1(x))))


HEADS = {
    "coarse": {"pool": (1, 1), "classes": 3},
    "fine": {"pool": (2, 2), "classes": 10},
    "layout": {"pool": (3, 1), "classes": 4},
}


class MultiHeadNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.heads = nn.ModuleDict({
            name: nn.Linear(16 * cfg["pool"][0] * cfg["pool"][1], cfg["classes"])
            for name, cfg in HEADS.items()
        })

    def forward(self, x, head, output_size):
        feats = self.backbone(x)
        pooled = F.adaptive_avg_pool2d(feats, output_size=output_size)
        return self.heads[head](pooled.flatten(1))


def main():
    model = MultiHeadNet()
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    names = list(HEADS)
    for step in range(9):
        head = names[step % len(names)]
        cfg = HEADS[head]
        x = torch.randn(8, 3, 16, 16)
        y = torch.randint(0, cfg["classes"], (8,))
        loss = F.cross_entropy(compiled(x, head, cfg["pool"]), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, head, round(loss.item(), 4))


if __name__ == "__main__":
    main()
