"""Fine-tuning a small C3D-style action recogniser on a new label set: the
whole network trains for two epochs, then the 3-D convolutional stem is
frozen and only the later layers keep training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class C3D(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv3d(3, 8, kernel_size=(3, 3, 3), padding=1),
            nn.BatchNorm3d(8), nn.ReLU(),
            nn.MaxPool3d((1, 2, 2)),
        )
        self.block = nn.Sequential(
            nn.Conv3d(8, 16, kernel_size=(3, 3, 3), padding=1),
            nn.BatchNorm3d(16), nn.ReLU(),
            nn.MaxPool3d(2),
        )
        self.fc = nn.Linear(16, num_classes)

    def forward(self, clip):
        x = self.block(self.stem(clip))
        x = F.adaptive_avg_pool3d(x, 1).flatten(1)
        return self.fc(x)


model = C3D()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for epoch in range(4):
    if epoch == 2:
        for p in model.stem.parameters():
            p.requires_grad_(False)
    for _ in range(2):
        clips = torch.randn(4, 3, 8, 16, 16)  # (B, C, T, H, W)
        labels = torch.randint(0, 5, (4,))
        loss = F.cross_entropy(cmodel(clips), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
