import torch
import torchvision
from torch import nn

torch.manual_seed(0)

model = torchvision.models.resnet18(num_classes=10)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()

for step in range(5):
    if step == 2:
        # switch to NHWC for faster convolutions, as the perf guide suggests
        model = model.to(memory_format=torch.channels_last)
    images = torch.randn(4, 3, 32, 32)
    if step >= 2:
        images = images.contiguous(memory_format=torch.channels_last)
    labels = torch.randint(0, 10, (4,))
    loss = loss_fn(compiled(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
