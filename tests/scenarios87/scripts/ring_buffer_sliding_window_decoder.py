import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM, HEADS, LAYERS, WINDOW = 96, 32, 4, 2, 6
HEAD_DIM = DIM // HEADS


class RingKVCache(nn.Module):
    """Fixed-size rolling key/value buffer for sliding-window attention."""

    def __init__(self, layers, heads, window, head_dim):
        super().__init__()
        self.window = window
        self.pos = 0
        self.register_buffer("k", torch.zeros(layers, 1, heads, window, head_dim))
        self.register_buffer("v", torch.zeros(layers, 1, heads, window, head_dim))

    def reset(self):
        self.pos = 0
        self.k.zero_()
        self.v.zero_()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.norm2 = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x, layer, cache):
        q, k, v = self.qkv(self.norm1(x)).view(1, 1, 3, HEADS, HEAD_DIM).unbind(2)
        slot = cache.pos % cache.window
        cache.k[layer, :, :, slot] = k[:, 0]
        cache.v[layer, :, :, slot] = v[:, 0]
        filled = min(cache.pos + 1, cache.window)
        keys = cache.k[layer, :, :, :filled]
        values = cache.v[layer, :, :, :filled]
        att = F.scaled_dot_product_attention(q.transpose(1, 2), keys, values)
        x = x + self.proj(att.transpose(1, 2).reshape(1, 1, DIM))
        return x + self.mlp(self.norm2(x))


class TinyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, VOCAB, bias=False)

    def forward(self, token, cache):
        x = self.embed(token)
        for i, blk in enumerate(self.blocks):
            x = blk(x, i, cache)
        return self.head(self.norm(x))[:, -1]


model = TinyDecoder().eval()
step = torch.compile(model, backend="aot_eager")
cache = RingKVCache(LAYERS, HEADS, WINDOW, HEAD_DIM)


@torch.no_grad()
def stream(prompt, new_tokens):
    cache.reset()
    out = []
    for t in prompt.tolist():
        logits = step(torch.tensor([[t]]), cache)
        cache.pos += 1
    for _ in range(new_tokens):
        tok = int(logits.argmax(-1))
        out.append(tok)
        logits = step(torch.tensor([[tok]]), cache)
        cache.pos += 1
    return out


for n, prompt_len in enumerate([4, 5]):
    prompt = torch.randint(0, VOCAB, (prompt_len,))
    print(f"stream {n}: {stream(prompt, new_tokens=6)}")
