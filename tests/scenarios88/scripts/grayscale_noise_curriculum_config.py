import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)

# augmentation settings, updated by the curriculum below
AUG = {"grayscale": False, "noise_sigma": 0.0}

CURRICULUM = {0: (False, 0.0), 2: (True, 0.05), 4: (True, 0.1)}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 12, 3, padding=1), nn.BatchNorm2d(12), nn.ReLU(),
            nn.Conv2d(12, 24, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(24, 4),
        )

    def forward(self, x):
        return self.body(x)


model = Net()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)


@torch.compile(backend="aot_eager")
def train_step(images, labels):
    if AUG["grayscale"]:
        images = TF.rgb_to_grayscale(images, num_output_channels=3)
    if AUG["noise_sigma"] > 0:
        images = TF.gaussian_noise(images, sigma=AUG["noise_sigma"], clip=True)
    logits = model(images)
    return F.cross_entropy(logits, labels)


for epoch in range(6):
    if epoch in CURRICULUM:
        AUG["grayscale"], AUG["noise_sigma"] = CURRICULUM[epoch]
    for _ in range(3):
        images = torch.rand(16, 3, 24, 24)
        labels = torch.randint(0, 4, (16,))
        loss = train_step(images, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} aug={AUG} loss={loss.item():.4f}")
