import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SharedAtrousHead(nn.Module):
    """One 3x3 kernel shared across branches, applied with each branch's rate."""

    def __init__(self, ch=8, n_classes=3):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(ch, ch, 3, 3) * 0.1)
        self.bias = nn.Parameter(torch.zeros(ch))
        self.cls = nn.Conv2d(ch, n_classes, 1)

    def forward(self, feat, dilation):
        h = F.conv2d(feat, self.weight, self.bias, padding=dilation, dilation=dilation)
        return self.cls(F.relu(h))


stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
head = SharedAtrousHead()
head_c = torch.compile(head, backend="aot_eager")
opt = torch.optim.SGD(list(stem.parameters()) + list(head.parameters()), lr=0.05)

ATROUS_RATES = [1, 2, 4]

for step in range(4):
    img = torch.randn(2, 3, 32, 32)
    target = torch.randint(0, 3, (2, 32, 32))
    feat = stem(img)
    loss = 0.0
    for rate in ATROUS_RATES:
        logits = head_c(feat, rate)
        loss = loss + F.cross_entropy(logits, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"loss {loss.item():.4f}")
