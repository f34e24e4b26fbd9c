"""Late-fusion classifier over image, audio and text features.

Clips come from a mixed collection: some have no audio track and some have
no transcript, so the collate function only puts the modalities that are
present into the batch dict and the model fuses whatever it gets.
"""

import torch
from torch import nn

torch.manual_seed(0)

DIMS = {"image": 48, "audio": 20, "text": 32}


class LateFusion(nn.Module):
    def __init__(self, hidden=32, classes=6):
        super().__init__()
        self.enc = nn.ModuleDict({k: nn.Sequential(nn.Linear(d, hidden), nn.ReLU()) for k, d in DIMS.items()})
        self.cls = nn.Linear(hidden, classes)

    def forward(self, batch):
        feats = [self.enc[k](v) for k, v in batch.items()]
        fused = torch.stack(feats, 0).mean(0)
        return self.cls(fused)


def collate(clips):
    # all clips in a batch come from the same shard, so they share modalities
    keys = [k for k in DIMS if k in clips[0]]
    return {k: torch.stack([c[k] for c in clips]) for k in keys}


def make_clip(has_audio, has_text):
    clip = {"image": torch.randn(DIMS["image"])}
    if has_audio:
        clip["audio"] = torch.randn(DIMS["audio"])
    if has_text:
        clip["text"] = torch.randn(DIMS["text"])
    return clip


shards = [(True, True), (True, True), (False, True), (True, False), (True, True), (False, True)]

model = LateFusion()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for step, (has_audio, has_text) in enumerate(shards):
    batch = collate([make_clip(has_audio, has_text) for _ in range(12)])
    labels = torch.randint(0, 6, (12,))
    loss = nn.functional.cross_entropy(compiled(batch), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} modalities {sorted(batch)} loss {loss.item():.4f}")
