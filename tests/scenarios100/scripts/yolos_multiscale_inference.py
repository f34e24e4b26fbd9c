"""Run a tiny random YOLOS detector over evaluation images whose sizes come
from a multi-scale test-time schedule, keeping boxes above a score threshold."""
import torch
from transformers import YolosConfig, YolosForObjectDetection

torch.manual_seed(0)

config = YolosConfig(
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=64,
    image_size=[64, 64],
    patch_size=16,
    num_detection_tokens=10,
    num_labels=4,
    use_mid_position_embeddings=False,
)
model = YolosForObjectDetection(config).eval()


@torch.compile(backend="aot_eager")
def detect(pixel_values):
    out = model(pixel_values=pixel_values)
    probs = out.logits.softmax(-1)[..., :-1]
    scores, labels = probs.max(-1)
    return scores, labels, out.pred_boxes


SCALES = [(64, 64), (64, 64), (80, 64), (96, 80), (64, 64)]
kept_total = 0
with torch.no_grad():
    for i, (h, w) in enumerate(SCALES):
        images = torch.rand(2, 3, h, w)
        scores, labels, boxes = detect(images)
        keep = scores > 0.3
        kept_total += int(keep.sum())
        cx, cy, bw, bh = boxes.unbind(-1)
        xyxy = torch.stack([(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h], -1)
        print(f"image {i} size {h}x{w} kept {int(keep.sum())} first box {xyxy[0, 0].tolist()}")
print("total kept", kept_total)
