import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def norm_act(x, weight, bias, num_groups):
    x = F.group_norm(x, num_groups=num_groups, weight=weight, bias=bias, eps=1e-5)
    return F.silu(x)


norm_act_c = torch.compile(norm_act, backend="aot_eager")


class ConvBlock(nn.Module):
    def __init__(self, ch, groups):
        super().__init__()
        self.groups = groups
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.gamma = nn.Parameter(torch.ones(ch))
        self.beta = nn.Parameter(torch.zeros(ch))

    def forward(self, x):
        return x + norm_act_c(self.conv(x), self.gamma, self.beta, self.groups)


class Net(nn.Module):
    def __init__(self, width, groups):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.blocks = nn.Sequential(ConvBlock(width, groups), ConvBlock(width, groups))
        self.fc = nn.Linear(width, 5)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(x.mean(dim=(2, 3)))


# width sweep: group count follows the usual "channels per group = 8" rule,
# capped at 32 groups
widths = [16, 32, 64, 128]
x = torch.randn(8, 3, 12, 12)
y = torch.randint(0, 5, (8,))
for width in widths:
    groups = min(32, width // 8)
    net = Net(width, groups)
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    for it in range(3):
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    n_params = sum(p.numel() for p in net.parameters())
    print(f"width {width} groups {groups} params {n_params} loss {loss.item():.4f}")
