"""Fine-tune a small torchvision MNASNet with a head-dropout ramp: the
classifier's dropout probability starts at 0 and is raised after two
epochs (a common regulariser schedule for short fine-tuning runs).
The whole model is compiled once.
"""
import torch
import torch.nn.functional as F
from torchvision.models import mnasnet0_5

torch.manual_seed(0)

DROPOUT_SCHEDULE = {0: 0.0, 2: 0.2}
EPOCHS = 3

model = mnasnet0_5(weights=None, num_classes=10, dropout=0.0)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
compiled = torch.compile(model, backend="aot_eager")

images = torch.randn(32, 3, 32, 32)
labels = torch.randint(0, 10, (32,))

for epoch in range(EPOCHS):
    if epoch in DROPOUT_SCHEDULE:
        model.classifier[0].p = DROPOUT_SCHEDULE[epoch]
    model.train()
    for i in range(0, 32, 16):
        loss = F.cross_entropy(compiled(images[i:i + 16]), labels[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} dropout {model.classifier[0].p} loss {loss.item():.4f}")
