import torch
from torch import nn
from torch.nn.attention.flex_attention import flex_attention

torch.manual_seed(0)


def sliding_window_causal(window):
    def mask_mod(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (q_idx - kv_idx < window)

    return mask_mod


class FlexSelfAttention(nn.Module):
    def __init__(self, dim=32, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, score_mod):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        y = flex_attention(q, k, v, score_mod=score_mod)
        return self.out(y.transpose(1, 2).reshape(b, t, d))


def masked_score(window):
    keep = sliding_window_causal(window)

    def score_mod(score, b, h, q_idx, kv_idx):
        return torch.where(keep(b, h, q_idx, kv_idx), score, -float("inf"))

    return score_mod


model = FlexSelfAttention().eval()
compiled = torch.compile(model, backend="aot_eager")

# evaluation sweep: how does the model do with narrower and wider attention windows?
for window in [4, 4, 8, 8, 16]:
    x = torch.randn(2, 32, 32)
    with torch.no_grad():
        y = compiled(x, masked_score(window))
    print(f"window {window} out norm {y.norm().item():.4f}")
