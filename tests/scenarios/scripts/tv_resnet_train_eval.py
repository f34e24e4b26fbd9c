import torch
import torchvision
from torch import nn

torch.manual_seed(0)

model = torchvision.models.resnet18(num_classes=10)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()


def train_steps(n):
    model.train()
    for _ in range(n):
        images, labels = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))
        loss = loss_fn(compiled(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def evaluate():
    model.eval()
    with torch.no_grad():
        images, labels = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))
        return loss_fn(compiled(images), labels).item()


for epoch in range(2):
    train_loss = train_steps(2)
    val_loss = evaluate()
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f}")
