import torch
from torch import nn

torch.manual_seed(0)


class Block(nn.Module):
    """Pre-norm attention block; even layers see a sliding window, odd layers everything."""

    def __init__(self, dim, heads, window):
        super().__init__()
        self.heads = heads
        self.window = window
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        i = torch.arange(t, device=x.device)
        mask = i[None, :] <= i[:, None]
        if self.window is not None:
            mask = mask & (i[:, None] - i[None, :] < self.window)
        y = nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return x + self.out(y.transpose(1, 2).reshape(b, t, d))


class Model(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=2, windows=(8, None, 8, None)):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, heads, w) for w in windows)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


model = Model()
# regional compilation: compile each repeated block, not the whole model
for block in model.blocks:
    block.compile(backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(3):
    tokens = torch.randint(0, 64, (4, 24))
    logits = model(tokens[:, :-1])
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
