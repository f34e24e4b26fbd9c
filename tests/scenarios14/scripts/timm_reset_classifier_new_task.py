"""Continual learning with a small timm ResNet.

Task A is a 10-way problem; after a few steps we move on to task B, a 4-way
problem, and reuse the backbone by resetting the classifier head in place.
The compiled model object is kept so we do not pay for a fresh wrapper.
"""

import timm
import torch
import torch.nn.functional as F

torch.manual_seed(0)

# tiny resnet so this runs on a laptop CPU
model = timm.create_model(
    "resnet18",
    pretrained=False,
    num_classes=10,
    # keep it small
    drop_rate=0.0,
)
model.eval()  # BN stats frozen, we only fine-tune
compiled = torch.compile(model, backend="aot_eager")


def make_task(num_classes, n=8):
    x = torch.randn(n, 3, 32, 32)
    y = torch.randint(0, num_classes, (n,))
    return x, y


def train_task(name, num_classes, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = make_task(num_classes)
    for step in range(steps):
        logits = compiled(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"[{name}] step {step} loss {loss.item():.4f}")


train_task("A", 10, steps=3)

# new task, new label space: swap the head, keep the features
model.reset_classifier(4)
train_task("B", 4, steps=3)

# quick check that the features still work for a linear probe
with torch.no_grad():
    x, _ = make_task(4)
    print("task B predictions", compiled(x).argmax(-1).tolist())
