"""Training a spatial transformer network on toy digits.

The localisation net predicts an affine warp that is applied with
affine_grid + grid_sample. Every few steps the user checks validation
accuracy and, every other check, renders the warped images for a sanity
check with corner-aligned sampling, as the plotting notebook did.
"""

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)


class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc = nn.Sequential(nn.Conv2d(1, 8, 5), nn.MaxPool2d(2), nn.ReLU(),
                                 nn.Flatten(), nn.Linear(8 * 12 * 12, 6))
        nn.init.zeros_(self.loc[-1].weight)
        with torch.no_grad():
            self.loc[-1].bias.copy_(torch.tensor([1.0, 0, 0, 0, 1.0, 0]))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))

    def forward(self, x, align_corners=False):
        theta = self.loc(x).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.shape, align_corners=align_corners)
        warped = F.grid_sample(x, grid, align_corners=align_corners)
        return self.classifier(warped), warped


model = STN()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)

images = torch.randn(32, 1, 28, 28)
targets = torch.randint(0, 10, (32,))
val_images = torch.randn(32, 1, 28, 28)
val_targets = torch.randint(0, 10, (32,))

for step in range(9):
    logits, _ = compiled(images)
    loss = F.cross_entropy(logits, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 2:
        with torch.no_grad():
            val_logits, _ = compiled(val_images)
            acc = (val_logits.argmax(-1) == val_targets).float().mean().item()
            print(f"step {step} loss {loss.item():.4f} val acc {acc:.3f}")
            if step % 6 == 2:
                # same warp as the plotting notebook (corner-aligned)
                _, warped = compiled(val_images, align_corners=True)
                print(f"  warped mean {warped.mean().item():.4f}")
