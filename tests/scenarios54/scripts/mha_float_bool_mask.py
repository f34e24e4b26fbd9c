import torch
import torch.nn as nn

torch.manual_seed(0)

EMBED, HEADS, SEQ = 32, 4, 10


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(EMBED, HEADS, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(EMBED, 64), nn.GELU(), nn.Linear(64, EMBED))
        self.norm1 = nn.LayerNorm(EMBED)
        self.norm2 = nn.LayerNorm(EMBED)

    def forward(self, x, attn_mask):
        a, _ = self.attn(x, x, x, attn_mask=attn_mask, need_weights=False)
        x = self.norm1(x + a)
        return self.norm2(x + self.ff(x))


encoder = Encoder().eval()
encode = torch.compile(encoder, backend="aot_eager")


def causal_additive_mask(n):
    # used by the generation service
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)


def local_window_mask(n, window=3):
    # used by the retrieval service: True = not allowed to attend
    idx = torch.arange(n)
    return (idx[None, :] - idx[:, None]).abs() > window


def generation_service(batch):
    return encode(batch, causal_additive_mask(SEQ))


def retrieval_service(batch):
    return encode(batch, local_window_mask(SEQ))


with torch.no_grad():
    for i in range(3):
        g = generation_service(torch.randn(2, SEQ, EMBED))
        r = retrieval_service(torch.randn(2, SEQ, EMBED))
        print(f"request {i}: gen={g.mean().item():.4f} ret={r.mean().item():.4f}")
