"""Small residual CNN on random images, trained in stages.

Each stage raises the stochastic-depth drop rate of the residual branches
(the schedule from our config), like the progressive regularisation recipe
we use for the bigger models.
"""

import torch
from torch import nn
from torchvision.ops import Conv2dNormActivation, SqueezeExcitation, StochasticDepth

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, ch, drop):
        super().__init__()
        self.conv1 = Conv2dNormActivation(ch, ch, kernel_size=3)
        self.conv2 = Conv2dNormActivation(ch, ch, kernel_size=3, activation_layer=None)
        self.se = SqueezeExcitation(ch, ch // 4)
        self.drop = StochasticDepth(drop, mode="row")

    def forward(self, x):
        return torch.relu(x + self.drop(self.se(self.conv2(self.conv1(x)))))


class Net(nn.Module):
    def __init__(self, ch=16, n_blocks=3, classes=10):
        super().__init__()
        self.stem = Conv2dNormActivation(3, ch, kernel_size=3, stride=2)
        self.blocks = nn.Sequential(*[Block(ch, 0.0) for _ in range(n_blocks)])
        self.head = nn.Linear(ch, classes)

    def forward(self, x):
        h = self.blocks(self.stem(x))
        return self.head(h.mean(dim=(2, 3)))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
compiled = torch.compile(model, backend="aot_eager")

# drop rate per stage, applied linearly over depth
stage_drop = [0.0, 0.1, 0.2]
images = torch.randn(8, 3, 32, 32)
labels = torch.randint(0, 10, (8,))

for stage, p in enumerate(stage_drop):
    for i, blk in enumerate(model.blocks):
        blk.drop.p = p * (i + 1) / len(model.blocks)
    model.train()
    for step in range(3):
        loss = nn.functional.cross_entropy(compiled(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage} drop {p:.2f} loss {loss.item():.4f}")
