"""Train a small CNN, then fold BatchNorm into the convs for serving.

After training we validate, fuse each conv+bn pair (inference only, so the
fused conv gets the bn statistics baked in) and swap the bn layers for
identities, then keep using the same compiled model to serve requests.
"""

import torch
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

torch.manual_seed(0)


class SmallNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(32)
        self.act = nn.ReLU()
        self.head = nn.Linear(32, n_classes)

    def forward(self, x):
        x = self.act(self.bn1(self.conv1(x)))
        x = self.act(self.bn2(self.conv2(x)))
        return self.head(x.mean(dim=(2, 3)))


model = SmallNet()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

train_x = torch.randn(128, 3, 16, 16)
train_y = torch.randint(0, 10, (128,))

for epoch in range(2):
    model.train()
    for i in range(0, 128, 32):
        loss = nn.functional.cross_entropy(compiled(train_x[i : i + 32]), train_y[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

# final validation pass
model.eval()
val_x = torch.randn(32, 3, 16, 16)
with torch.no_grad():
    ref = compiled(val_x)
print("val done", ref.argmax(1)[:8].tolist())

# fold bn into conv for deployment
model.conv1 = fuse_conv_bn_eval(model.conv1, model.bn1)
model.bn1 = nn.Identity()
model.conv2 = fuse_conv_bn_eval(model.conv2, model.bn2)
model.bn2 = nn.Identity()

with torch.no_grad():
    fused = compiled(val_x)
    print("max diff after fusion", (fused - ref).abs().max().item())
    for req in range(3):
        batch = torch.randn(32, 3, 16, 16)
        print("request", req, compiled(batch).argmax(1)[:4].tolist())
