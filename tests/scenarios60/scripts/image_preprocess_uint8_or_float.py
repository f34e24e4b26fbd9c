import torch
import torch.nn as nn

torch.manual_seed(0)

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def preprocess(images):
    if not images.is_floating_point():
        images = images.float() / 255.0
    return (images - MEAN) / STD


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3),
        )

    def forward(self, images):
        return self.net(preprocess(images))


def camera_source(n, g):
    # JPEG decoder output: raw HWC bytes already permuted to NCHW
    for _ in range(n):
        yield torch.randint(0, 256, (4, 3, 24, 24), generator=g, dtype=torch.uint8), torch.randint(0, 3, (4,), generator=g)


def archive_source(n, g):
    # archived dataset stored as float tensors in [0, 1]
    for _ in range(n):
        yield torch.rand(4, 3, 24, 24, generator=g), torch.randint(0, 3, (4,), generator=g)


model = Classifier()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(1)

for epoch in range(2):
    for source in (archive_source(3, g), camera_source(3, g)):
        for images, labels in source:
            loss = nn.functional.cross_entropy(step_fn(images), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
