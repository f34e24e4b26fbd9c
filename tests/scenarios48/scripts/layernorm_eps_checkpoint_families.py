import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# layer_norm_eps as shipped by each checkpoint family
FAMILIES = [
    {"family": "bert", "layer_norm_eps": 1e-12},
    {"family": "vit", "layer_norm_eps": 1e-6},
    {"family": "gpt2", "layer_norm_eps": 1e-5},
]


class Block(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.ln_w = nn.Parameter(torch.ones(dim))
        self.ln_b = nn.Parameter(torch.zeros(dim))
        self.eps = eps
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        h = F.layer_norm(x, (x.shape[-1],), self.ln_w, self.ln_b, self.eps)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        h = F.layer_norm(x, (x.shape[-1],), self.ln_w, self.ln_b, self.eps)
        return x + self.ff(h)


def run_block(block, x):
    return block(x)


compiled_block = torch.compile(run_block, backend="aot_eager")

# evaluation harness: same probe batches through one block of each family
probe = torch.randn(4, 10, 32)
for rnd in range(2):
    for cfg in FAMILIES:
        torch.manual_seed(len(cfg["family"]))
        block = Block(32, cfg["layer_norm_eps"]).eval()
        with torch.no_grad():
            out = compiled_block(block, probe)
        print(f"round {rnd} {cfg['family']}: out norm {out.norm().item():.4f}")
