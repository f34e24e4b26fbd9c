import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

torch.manual_seed(0)


def make_model(num_classes=10):
    return nn.Sequential(
        torchvision.ops.Conv2dNormActivation(3, 16, kernel_size=3),
        torchvision.ops.Conv2dNormActivation(16, 32, kernel_size=3, stride=2),
        torchvision.ops.SqueezeExcitation(32, 8),
        torchvision.ops.Conv2dNormActivation(32, 32, kernel_size=3, stride=2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(32, num_classes),
    )


model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


@torch.compile(backend="aot_eager")
def train_step(x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    return loss.detach()


memory_format = torch.contiguous_format
for epoch in range(3):
    if epoch == 1:
        # profiler said NHWC convs are faster on this box
        memory_format = torch.channels_last
        model.to(memory_format=memory_format)
    for _ in range(3):
        x = torch.randn(8, 3, 32, 32).contiguous(memory_format=memory_format)
        y = torch.randint(0, 10, (8,))
        opt.zero_grad()
        loss = train_step(x, y)
        opt.step()
    print(f"epoch {epoch} format={memory_format} loss={loss.item():.4f}")
