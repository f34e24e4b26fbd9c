import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GatedBlock(nn.Module):
    """Gated linear unit block that works on (B, T, C) or (B, C, T) inputs."""

    def __init__(self, channels):
        super().__init__()
        self.proj_last = nn.Linear(channels, 2 * channels)
        self.proj_conv = nn.Conv1d(channels, 2 * channels, 3, padding=1)
        self.norm = nn.LayerNorm(channels)

    def forward(self, x, layout):
        if layout == "btc":
            h = F.glu(self.proj_last(x), dim=-1)
            return self.norm(h + x)
        h = F.glu(self.proj_conv(x), dim=1)
        return self.norm((h + x).transpose(1, 2)).transpose(1, 2)


block = GatedBlock(16)
gated = torch.compile(block, backend="aot_eager")
opt = torch.optim.AdamW(block.parameters(), lr=1e-3)

# text batches arrive as (B, T, C), audio frames as (B, C, T)
batches = [
    ("btc", torch.randn(4, 20, 16)),
    ("btc", torch.randn(4, 20, 16)),
    ("bct", torch.randn(4, 16, 20)),
    ("btc", torch.randn(4, 20, 16)),
    ("bct", torch.randn(4, 16, 20)),
]

for i, (layout, x) in enumerate(batches):
    out = gated(x, layout)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"batch {i} [{layout}] loss {loss.item():.4f}")
