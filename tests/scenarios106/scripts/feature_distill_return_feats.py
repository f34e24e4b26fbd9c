"""Class-incremental training with feature distillation (PODNet/LUCIR style).

From the second task on, the model is switched to also return its backbone
features (a `return_features` flag on the module, as many continual-learning
code bases do) so that the training loop can add a feature-distillation term
against a frozen snapshot of the previous model. The whole model is compiled
with torch.compile.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, n_classes=8):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.GELU(), nn.AdaptiveAvgPool2d(4),
            nn.Flatten(), nn.Linear(256, 64), nn.GELU(),
        )
        self.head = nn.Linear(64, n_classes)
        self.return_features = False

    def forward(self, x):
        feat = self.backbone(x)
        logits = self.head(feat)
        if self.return_features:
            return logits, feat
        return logits


model = Classifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)

class_imgs = torch.randn(8, 3, 12, 12)
snapshot = None
for task in range(3):
    classes = torch.arange(task * 2, task * 2 + 4).clamp(max=7)
    if task == 1:
        model.return_features = True
    for step in range(3):
        y = classes[torch.randint(0, len(classes), (16,))]
        x = class_imgs[y] + 0.5 * torch.randn(16, 3, 12, 12)
        opt.zero_grad()
        if snapshot is None:
            loss = F.cross_entropy(compiled(x), y)
        else:
            logits, feat = compiled(x)
            with torch.no_grad():
                old_feat = snapshot.backbone(x)
            loss = F.cross_entropy(logits, y) + F.mse_loss(feat, old_feat)
        loss.backward()
        opt.step()
    snapshot = copy.deepcopy(model).eval().requires_grad_(False)
    print(f"task {task}: loss {loss.item():.3f}")
