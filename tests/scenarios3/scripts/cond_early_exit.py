import torch
from torch import nn

torch.manual_seed(0)


class EarlyExitNet(nn.Module):
    """Skips the deep path when the shallow head is already confident."""

    def __init__(self, dim=32, classes=5):
        super().__init__()
        self.shallow = nn.Sequential(nn.Linear(dim, dim), nn.ReLU())
        self.deep = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        h = self.shallow(x)
        confident = self.head(h).softmax(-1).amax(-1).mean() > 0.9
        h = torch.cond(confident, lambda t: t.clone(), lambda t: t + self.deep(t), (h,))
        return self.head(h)


model = EarlyExitNet().eval()
compiled = torch.compile(model, backend="aot_eager")

# an inference service: requests are grouped in batches of whatever size arrived
for batch in [16, 16, 9, 16, 1, 4]:
    x = torch.randn(batch, 32)
    with torch.no_grad():
        logits = compiled(x)
    print(f"batch {batch} -> {logits.argmax(-1).tolist()}")
