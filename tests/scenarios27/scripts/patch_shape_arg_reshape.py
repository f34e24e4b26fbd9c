"""Patch embedding shared by an image encoder and a video encoder.

Both callers hand over the grid they want the tokens laid out on, as a
torch.Size taken from their own input.
"""

import torch
from torch import nn

torch.manual_seed(0)

DIM = 48
proj = nn.Linear(3 * 4 * 4, DIM)


@torch.compile(backend="aot_eager")
def embed_patches(patches, grid):
    tokens = proj(patches)
    tokens = tokens.view(grid + (DIM,))
    return tokens.flatten(1, -2)


def image_tokens(img):
    b, c, h, w = img.shape
    p = img.unfold(2, 4, 4).unfold(3, 4, 4)
    p = p.permute(0, 2, 3, 1, 4, 5).reshape(b, h // 4, w // 4, -1)
    return embed_patches(p, p.shape[:3])


def video_tokens(clip):
    b, t, c, h, w = clip.shape
    p = clip.reshape(b * t, c, h, w).unfold(2, 4, 4).unfold(3, 4, 4)
    p = p.permute(0, 2, 3, 1, 4, 5).reshape(b, t, h // 4, w // 4, -1)
    return embed_patches(p, p.shape[:4])


with torch.no_grad():
    for it in range(3):
        imgs = torch.randn(2, 3, 32, 32)
        clips = torch.randn(2, 4, 3, 32, 32)
        a = image_tokens(imgs)
        v = video_tokens(clips)
        print(f"iter {it} image tokens {tuple(a.shape)} video tokens {tuple(v.shape)}")
