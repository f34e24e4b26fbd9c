"""Training an imbalanced classifier with a compiled loss.

For the first epochs the loss is plain cross entropy; once the validation
recall on the rare classes stalls, the user switches on class weights
computed from the label histogram.
"""

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_CLASSES = 5
labels = torch.cat([torch.zeros(300), torch.ones(60), torch.full((20,), 2.0),
                    torch.full((12,), 3.0), torch.full((8,), 4.0)]).long()
features = torch.randn(labels.shape[0], 16) + labels[:, None].float() * 0.3

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, NUM_CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


@torch.compile(backend="aot_eager")
def loss_fn(logits, target, class_weights):
    return F.cross_entropy(logits, target, weight=class_weights)


class_weights = None
for epoch in range(4):
    perm = torch.randperm(labels.shape[0])
    for start in range(0, 384, 64):
        idx = perm[start:start + 64]
        loss = loss_fn(model(features[idx]), labels[idx], class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(features).argmax(-1)
    rare_recall = (pred[labels >= 2] == labels[labels >= 2]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} rare recall {rare_recall:.3f}")
    if epoch >= 1 and class_weights is None:
        counts = torch.bincount(labels, minlength=NUM_CLASSES).float()
        class_weights = counts.sum() / (NUM_CLASSES * counts)
