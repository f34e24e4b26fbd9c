import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CLIP_LEN = 8


class TinyC3D(nn.Module):
    def __init__(self, n_cls=5):
        super().__init__()
        self.stem = nn.Conv3d(3, 8, kernel_size=(3, 3, 3), padding=1)
        self.block = nn.Conv3d(8, 16, kernel_size=(3, 3, 3), padding=1, stride=(1, 2, 2))
        self.fc = nn.Linear(16, n_cls)

    def forward(self, clip):
        x = F.relu(self.stem(clip))
        x = F.relu(self.block(x))
        x = x.mean(dim=(2, 3, 4))
        return self.fc(x)


def make_videos():
    # (label, video tensor C x T x H x W) from three "sources" with different lengths
    lengths = [24, 27, 19, 24, 30]
    return [(i % 5, torch.randn(3, t, 16, 16)) for i, t in enumerate(lengths)]


def clips_of(video):
    t = video.shape[1]
    for start in range(0, t, CLIP_LEN):
        yield video[:, start:start + CLIP_LEN].unsqueeze(0)


model = TinyC3D()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

videos = make_videos()
for epoch in range(2):
    running = 0.0
    n = 0
    for label, video in videos:
        target = torch.tensor([label])
        for clip in clips_of(video):
            logits = cmodel(clip)
            loss = F.cross_entropy(logits, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
            n += 1
    print(f"epoch {epoch}: {n} clips, mean loss {running / n:.4f}")
