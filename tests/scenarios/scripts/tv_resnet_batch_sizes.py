import torch
import torchvision
from torch import nn

torch.manual_seed(0)

model = torchvision.models.resnet18(num_classes=10)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()

# batch size shrinks as we run short of memory / data: 8, then 6, 4, 5
for batch_size in [8, 6, 4, 5]:
    images = torch.randn(batch_size, 3, 32, 32)
    labels = torch.randint(0, 10, (batch_size,))
    loss = loss_fn(compiled(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"batch {batch_size} loss {loss.item():.4f}")
