import torch
import torch.nn as nn
from torchvision.ops import deform_conv2d

torch.manual_seed(0)


def deformable_conv(x, weight, bias, offset_conv, mask_conv):
    offset = offset_conv(x)
    mask = torch.sigmoid(mask_conv(x)) if mask_conv is not None else None
    return deform_conv2d(x, offset, weight, bias, padding=(1, 1), mask=mask)


fast_deform = torch.compile(deformable_conv, backend="aot_eager")


class DeformBlock(nn.Module):
    def __init__(self, cin, cout, modulated):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cout, cin, 3, 3) * 0.1)
        self.bias = nn.Parameter(torch.zeros(cout))
        self.offset_conv = nn.Conv2d(cin, 18, 3, padding=1)
        nn.init.zeros_(self.offset_conv.weight)
        self.mask_conv = nn.Conv2d(cin, 9, 3, padding=1) if modulated else None
        self.norm = nn.BatchNorm2d(cout)

    def forward(self, x):
        y = fast_deform(x, self.weight, self.bias, self.offset_conv, self.mask_conv)
        return torch.relu(self.norm(y))


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        # DCNv2 only in the later stages, plain DCN in the first one
        self.stage1 = DeformBlock(16, 16, modulated=False)
        self.stage2 = DeformBlock(16, 16, modulated=True)
        self.stage3 = DeformBlock(16, 16, modulated=True)
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        x = torch.relu(self.stem(x))
        x = self.stage1(x)
        x = self.stage2(x)
        x = self.stage3(x)
        return self.head(x.mean(dim=(2, 3)))


model = Backbone()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for step in range(5):
    images = torch.randn(2, 3, 16, 16)
    labels = torch.randint(0, 5, (2,))
    loss = nn.functional.cross_entropy(model(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
