import torch
from torch import nn
from torchvision.models import efficientnet_b0

torch.manual_seed(0)

model = efficientnet_b0(num_classes=10)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

# dropout schedule: the head's dropout grows every epoch
for epoch in range(4):
    model.classifier[0].p = 0.1 + 0.1 * epoch
    x = torch.randn(2, 3, 32, 32)
    y = torch.randint(0, 10, (2,))
    loss = nn.functional.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"epoch {epoch} p {model.classifier[0].p:.1f} loss {loss.item():.4f}")
