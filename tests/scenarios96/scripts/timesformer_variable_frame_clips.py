"""Tiny TimeSformer action classifier: train on 4-frame clips, then test on
longer 6-frame clips sampled at a higher frame rate."""
import torch
from transformers import TimesformerConfig, TimesformerForVideoClassification

torch.manual_seed(0)

cfg = TimesformerConfig(
    image_size=16, patch_size=8, num_channels=3, num_frames=4,
    hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
    intermediate_size=64, num_labels=5,
)
model = TimesformerForVideoClassification(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
cmodel = torch.compile(model, backend="aot_eager")


def make_clips(n, frames):
    # (batch, frames, channels, height, width)
    video = torch.randn(n, frames, 3, 16, 16)
    labels = torch.randint(0, 5, (n,))
    return video, labels


model.train()
for step in range(4):
    video, labels = make_clips(4, 4)
    out = cmodel(pixel_values=video, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} loss {out.loss.item():.4f}")

model.eval()
with torch.no_grad():
    for frames in (4, 6):
        video, labels = make_clips(4, frames)
        logits = cmodel(pixel_values=video).logits
        acc = (logits.argmax(-1) == labels).float().mean().item()
        print(f"test frames={frames} acc {acc:.2f}")
