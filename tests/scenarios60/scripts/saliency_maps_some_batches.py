import torch
import torch.nn as nn

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


model = SmallCNN().eval()
for p in model.parameters():
    p.requires_grad_(False)


@torch.compile(backend="aot_eager")
def score(x):
    logits = model(x)
    return logits, logits.max(dim=1).values.sum()


g = torch.Generator().manual_seed(1)
EXPLAIN_EVERY = 3  # write saliency maps for every third batch of the audit

saved = []
for batch_idx in range(9):
    x = torch.rand(4, 3, 16, 16, generator=g)
    explain = batch_idx % EXPLAIN_EVERY == 0
    if explain:
        x.requires_grad_()
    logits, top = score(x)
    if explain:
        top.backward()
        sal = x.grad.abs().amax(dim=1)
        saved.append(sal)
        print(f"batch {batch_idx} saliency mean {sal.mean().item():.5f}")
    else:
        print(f"batch {batch_idx} preds {logits.argmax(1).tolist()}")

print("saliency maps written:", len(saved))
