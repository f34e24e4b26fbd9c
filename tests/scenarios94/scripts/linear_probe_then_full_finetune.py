"""Linear probing, then full fine-tuning, of a tiny timm ResNet.

Phase 1 freezes everything but the classifier with timm.utils.freeze;
phase 2 unfreezes the backbone and continues with a smaller lr.
The training step is compiled once and used in both phases.
"""
import torch
import torch.nn as nn
import timm
from timm.utils.model import freeze, unfreeze

torch.manual_seed(0)

model = timm.create_model("resnet10t", pretrained=False, num_classes=5)
criterion = nn.CrossEntropyLoss()

images = torch.randn(48, 3, 32, 32)
labels = torch.randint(0, 5, (48,))


@torch.compile(backend="aot_eager")
def forward_loss(x, y):
    return criterion(model(x), y)


def run_phase(name, opt, epochs):
    model.train()
    for epoch in range(epochs):
        for i in range(0, 48, 16):
            loss = forward_loss(images[i:i + 16], labels[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"{name} epoch {epoch} loss {loss.item():.4f}")


backbone = [n for n, _ in model.named_children() if n != "fc"]
freeze(model, backbone)
probe_opt = torch.optim.SGD(model.get_classifier().parameters(), lr=0.1, momentum=0.9)
run_phase("probe", probe_opt, 2)

unfreeze(model, backbone)
ft_opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
run_phase("finetune", ft_opt, 2)
