# Small relation network for set inputs. All tensor contractions go through
# one compiled einsum helper so the kernels are shared between layers.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def contract(eq, a, b):
    return torch.einsum(eq, a, b)


class RelationLayer(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.bilinear = nn.Parameter(torch.randn(heads, dim // heads, dim // heads) * 0.1)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, D // self.heads).unbind(2)
        qw = contract("bnhd,hde->bnhe", q, self.bilinear)
        scores = contract("bnhe,bmhe->bhnm", qw, k) / (D // self.heads) ** 0.5
        attn = scores.softmax(-1)
        ctx = contract("bhnm,bmhd->bnhd", attn, v)
        return x + self.out(ctx.reshape(B, N, D))


class SetClassifier(nn.Module):
    def __init__(self, dim=32, classes=4):
        super().__init__()
        self.embed = nn.Linear(3, dim)
        self.layers = nn.ModuleList([RelationLayer(dim), RelationLayer(dim)])
        self.head = nn.Linear(dim, classes)

    def forward(self, pts):
        h = self.embed(pts)
        for layer in self.layers:
            h = layer(h)
        return self.head(h.max(dim=1).values)


model = SetClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(4):
    pts = torch.randn(16, 20, 3)
    y = torch.randint(0, 4, (16,))
    loss = F.cross_entropy(model(pts), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
