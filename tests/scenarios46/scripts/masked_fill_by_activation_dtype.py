import torch
import torch.nn as nn


class MaskedSelfAttention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, pad_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5
        if scores.dtype == torch.float32:
            neg = float("-inf")
        else:
            neg = -1e4
        scores = scores.masked_fill(~pad_mask[:, None, None, :], neg)
        attn = scores.softmax(-1)
        out = (attn @ v).transpose(1, 2).reshape(b, t, d)
        return self.proj(out)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 32)
        self.attn = MaskedSelfAttention()
        self.head = nn.Linear(32, 2)

    def forward(self, ids, pad_mask):
        h = self.emb(ids)
        h = h + self.attn(h, pad_mask)
        return self.head(h.mean(1))


def make_batch(g):
    ids = torch.randint(1, 100, (8, 12), generator=g)
    lengths = torch.randint(4, 13, (8,), generator=g)
    pad_mask = torch.arange(12)[None, :] < lengths[:, None]
    return ids, pad_mask


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = Encoder().eval()
    run = torch.compile(model, backend="aot_eager")
    with torch.no_grad():
        for i in range(3):
            ids, mask = make_batch(g)
            print("fp32", i, run(ids, mask).argmax(-1).tolist())
        # serve in reduced precision
        model.to(torch.bfloat16)
        for i in range(3):
            ids, mask = make_batch(g)
            print("bf16", i, run(ids, mask).float().argmax(-1).tolist())


if __name__ == "__main__":
    main()
