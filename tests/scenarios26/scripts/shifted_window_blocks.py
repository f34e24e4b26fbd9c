# Hand-written shifted-window attention for a small vision backbone.
# The attention kernel is compiled once and shared by every block.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def window_attention(x, qkv_w, proj_w, window, shift, heads):
    B, H, W, C = x.shape
    if shift:
        x = torch.roll(x, shifts=(-shift, -shift), dims=(1, 2))
    win = x.view(B, H // window, window, W // window, window, C)
    win = win.permute(0, 1, 3, 2, 4, 5).reshape(-1, window * window, C)
    q, k, v = F.linear(win, qkv_w).chunk(3, dim=-1)
    q, k, v = (t.unflatten(-1, (heads, C // heads)).transpose(1, 2) for t in (q, k, v))
    out = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).flatten(2)
    out = F.linear(out, proj_w)
    out = out.view(B, H // window, W // window, window, window, C)
    out = out.permute(0, 1, 3, 2, 4, 5).reshape(B, H, W, C)
    if shift:
        out = torch.roll(out, shifts=(shift, shift), dims=(1, 2))
    return out


class Block(nn.Module):
    def __init__(self, dim, heads, window, index):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.window, self.heads = window, heads
        # every second block shifts by half a window
        self.shift = 0 if index % 2 == 0 else window // 2

    def forward(self, x):
        h = window_attention(self.norm(x), self.qkv.weight, self.proj.weight,
                             self.window, self.shift, self.heads)
        return x + h


class Backbone(nn.Module):
    def __init__(self, dim=32, depth=4, window=4):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, 4, 4)
        self.blocks = nn.ModuleList(Block(dim, 4, window, i) for i in range(depth))
        self.head = nn.Linear(dim, 5)

    def forward(self, img):
        x = self.embed(img).permute(0, 2, 3, 1)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x.mean(dim=(1, 2)))


model = Backbone()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(4):
    img = torch.randn(4, 3, 32, 32)
    y = torch.randint(0, 5, (4,))
    loss = F.cross_entropy(model(img), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
