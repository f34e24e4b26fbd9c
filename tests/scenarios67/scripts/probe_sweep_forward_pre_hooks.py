import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.SiLU(), nn.Linear(2 * d, d))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class Backbone(nn.Module):
    def __init__(self, d=32, depth=4):
        super().__init__()
        self.inp = nn.Linear(16, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(depth))

    def forward(self, x):
        x = self.inp(x)
        for blk in self.blocks:
            x = blk(x)
        return x


# frozen "pretrained" backbone
backbone = Backbone().eval()
backbone.requires_grad_(False)
compiled = torch.compile(backbone, backend="aot_eager")

X = torch.randn(256, 16)
y = (X[:, :4].sum(-1) > 0).long()

captured = {}


def capture(module, args):
    captured["feat"] = args[0].detach()


results = {}
for layer in range(len(backbone.blocks)):
    handle = backbone.blocks[layer].register_forward_pre_hook(capture)
    probe = nn.Linear(32, 2)
    opt = torch.optim.SGD(probe.parameters(), lr=0.5)
    for epoch in range(3):
        for i in range(0, 256, 64):
            with torch.no_grad():
                compiled(X[i:i + 64])
            loss = F.cross_entropy(probe(captured["feat"]), y[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        compiled(X)
        acc = (probe(captured["feat"]).argmax(-1) == y).float().mean().item()
    handle.remove()
    results[layer] = acc
    print(f"layer {layer}: probe acc {acc:.3f}")

print("best layer", max(results, key=results.get))
