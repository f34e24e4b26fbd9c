"""Evaluate an MC3-18 action-recognition model from torchvision on short
clips, with several test-time view settings (spatial crops x temporal clips)
averaged per video."""
import torch
from torchvision.models.video import mc3_18

torch.manual_seed(0)
NUM_CLASSES = 5

model = mc3_18(weights=None, num_classes=NUM_CLASSES).eval()
compiled = torch.compile(model, backend="aot_eager")


def random_video(frames=4, size=32):
    return torch.randn(3, frames, size, size)


def make_views(video, spatial_crops, temporal_clips):
    views = video.unsqueeze(0).repeat(spatial_crops * temporal_clips, 1, 1, 1, 1)
    return views + 0.01 * torch.randn_like(views)


def evaluate(videos, spatial_crops, temporal_clips):
    correct = 0
    with torch.no_grad():
        for video, label in videos:
            views = make_views(video, spatial_crops, temporal_clips)
            probs = compiled(views).softmax(dim=1).mean(dim=0)
            correct += int(probs.argmax().item() == label)
    return correct / len(videos)


val = [(random_video(), i % NUM_CLASSES) for i in range(3)]
for crops, clips in [(1, 2), (3, 2), (3, 4)]:
    acc = evaluate(val, crops, clips)
    print(f"{crops}x{clips} views: top-1 {acc:.3f}")
