"""1-D conv classifier over sensor clips, with activation offloading.

Most clips fit comfortably, but every third batch comes from the long-clip
bucket (padded/cropped to the same length, just many more channels active);
for those the train step keeps the saved activations on the CPU side during
the forward (autograd's save_on_cpu) so the peak memory stays flat.
"""

import contextlib

import torch
from torch import nn

torch.manual_seed(0)


class ClipNet(nn.Module):
    def __init__(self, channels=6, width=32, n_classes=5):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(channels, width, 5, padding=2),
            nn.GELU(),
            nn.Conv1d(width, width, 5, padding=2),
            nn.GELU(),
        )
        self.head = nn.Linear(width, n_classes)

    def forward(self, x):
        h = self.body(x)
        return self.head(h.mean(-1))


model = ClipNet()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def forward_loss(x, y, offload):
    ctx = torch.autograd.graph.save_on_cpu(pin_memory=False) if offload else contextlib.nullcontext()
    with ctx:
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
    return loss


for step in range(9):
    long_bucket = step % 3 == 2
    x = torch.randn(16, 6, 256)
    y = torch.randint(0, 5, (16,))

    loss = forward_loss(x, y, long_bucket)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} offload={long_bucket} loss {loss.item():.4f}")
