import torch
from torch import nn
from torchvision.ops import MultiScaleRoIAlign

torch.manual_seed(0)


class BoxHead(nn.Module):
    """Second stage of a two-stage detector: pool each proposal, classify it."""

    def __init__(self, ch=8, classes=5):
        super().__init__()
        self.pool = MultiScaleRoIAlign(["p2"], output_size=4, sampling_ratio=2)
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(ch * 16, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, features, proposals, image_sizes):
        return self.fc(self.pool(features, proposals, image_sizes))


head = BoxHead()
compiled = torch.compile(head, backend="aot_eager")
opt = torch.optim.SGD(head.parameters(), lr=0.01)


def random_boxes(n):
    xy = torch.rand(n, 2) * 48
    return torch.cat([xy, xy + 8 + torch.rand(n, 2) * 8], dim=1)


# proposals per image vary with the scene
for step, counts in enumerate([(6, 6), (6, 6), (9, 4), (3, 12)]):
    features = {"p2": torch.randn(len(counts), 8, 16, 16)}
    proposals = [random_boxes(n) for n in counts]
    labels = torch.randint(0, 5, (sum(counts),))
    loss = nn.functional.cross_entropy(compiled(features, proposals, [(64, 64)] * len(counts)), labels)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} proposals {counts} loss {loss.item():.4f}")
