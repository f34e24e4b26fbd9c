"""Serve an image classifier whose Perceiver-style resampler cross-attends from
a bank of learned latent queries to the patch tokens. Cheaper service tiers
use fewer of the latents.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D, MAX_LATENTS, PATCH = 32, 16, 4
TIER_LATENTS = {"basic": 4, "standard": 8, "premium": 16}


class Resampler(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.patch_embed = nn.Linear(3 * PATCH * PATCH, D)
        self.pos = nn.Parameter(0.02 * torch.randn(64, D))
        self.latents = nn.Parameter(torch.randn(MAX_LATENTS, D))
        self.attn = nn.MultiheadAttention(D, num_heads=4, batch_first=True)
        self.norm = nn.LayerNorm(D)
        self.head = nn.Linear(D, n_classes)

    def forward(self, images, num_latents):
        patches = F.unfold(images, kernel_size=PATCH, stride=PATCH).transpose(1, 2)
        tokens = self.patch_embed(patches) + self.pos[: patches.shape[1]]
        queries = self.latents[:num_latents].unsqueeze(0).expand(images.shape[0], -1, -1)
        z, _ = self.attn(queries, tokens, tokens, need_weights=False)
        return self.head(self.norm(z).mean(dim=1))


model = Resampler().eval()
serve = torch.compile(model, backend="aot_eager")

requests = ["standard", "standard", "basic", "standard", "premium", "basic", "premium", "standard"]

with torch.no_grad():
    for i, tier in enumerate(requests):
        images = torch.rand(8, 3, 32, 32)
        probs = serve(images, TIER_LATENTS[tier]).softmax(-1)
        conf, label = probs.max(-1)
        print(f"request {i} tier={tier} labels={label.tolist()} mean_conf={conf.mean().item():.3f}")
