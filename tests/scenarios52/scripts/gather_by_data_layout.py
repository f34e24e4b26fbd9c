import torch
import torch.nn as nn

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def gather_frames(features, frame_idx, time_dim):
    picked = torch.take_along_dim(features, frame_idx, dim=time_dim)
    channels = torch.index_select(picked, -1, KEEP_CHANNELS)
    return channels.float().mean(dim=time_dim)


KEEP_CHANNELS = torch.tensor([0, 2, 4, 6, 8, 10])

# some sources deliver batch-first (B, T, C) clips, others time-first (T, B, C)
SOURCES = [
    ("camera_a", "BTC"),
    ("camera_b", "BTC"),
    ("lidar", "TBC"),
    ("camera_a", "BTC"),
    ("radar", "TBC"),
]

proj = nn.Linear(6, 3)
for step, (source, layout) in enumerate(SOURCES):
    b, t, c = 4, 20, 12
    clip = torch.randn(b, t, c)
    idx = torch.sort(torch.randint(0, t, (b, 5, 1)), dim=1).values
    if layout == "TBC":
        clip = clip.transpose(0, 1).contiguous()
        idx = idx.transpose(0, 1).contiguous()
        time_dim = 0
    else:
        time_dim = 1
    summary = gather_frames(clip, idx, time_dim)
    out = proj(summary)
    print(step, source, layout, tuple(out.shape), round(out.sum().item(), 4))
