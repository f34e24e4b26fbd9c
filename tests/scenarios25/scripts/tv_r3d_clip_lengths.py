"""Action recognition on short video clips with torchvision's r3d_18.

Clips come from a sampler that takes 8 frames for short videos and 16 for
longer ones; the model is fine-tuned from scratch at a small resolution.
"""

import torch
from torch import nn
from torchvision.models.video import r3d_18

torch.manual_seed(0)

model = r3d_18(weights=None, num_classes=5)
model = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

# (num_frames of the source video, label)
videos = [(40, 0), (90, 1), (35, 2), (120, 3), (60, 4), (25, 1), (150, 0)]


def sample_clip(num_frames):
    clip_len = 8 if num_frames < 64 else 16
    # C, T, H, W at 32x32 to keep it cheap on CPU
    return torch.randn(3, clip_len, 32, 32)


model.train()
for step, (num_frames, label) in enumerate(videos):
    clips = torch.stack([sample_clip(num_frames) for _ in range(2)])
    labels = torch.tensor([label, label])
    loss = nn.functional.cross_entropy(model(clips), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} frames {clips.shape[2]} loss {loss.item():.3f}")

# quick check on a held-out video (long one, so 16 frames)
model.eval()
with torch.no_grad():
    probs = model(torch.stack([sample_clip(100)])).softmax(dim=-1)
print("held-out prediction", probs.argmax(dim=-1).item())
