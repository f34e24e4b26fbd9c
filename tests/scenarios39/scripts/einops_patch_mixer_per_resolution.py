"""An MLP-Mixer-style classifier written with einops layers. The patch
embedding is an nn.Sequential built for the input resolution, so progressive
resizing builds a new one at each stage of training."""

import torch
from torch import nn
from einops.layers.torch import EinMix, Rearrange, Reduce

PATCH = 4
DIM = 32


def build_model(res, num_classes=10):
    n = (res // PATCH) ** 2
    return nn.Sequential(
        Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=PATCH, p2=PATCH),
        nn.Linear(PATCH * PATCH * 3, DIM),
        EinMix("b n d -> b m d", weight_shape="n m", bias_shape="m", n=n, m=n),
        nn.GELU(),
        EinMix("b n d -> b n e", weight_shape="d e", d=DIM, e=DIM),
        Reduce("b n d -> b d", "mean"),
        nn.LayerNorm(DIM),
        nn.Linear(DIM, num_classes),
    )


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(5)
    for res in (16, 24, 32):
        model = build_model(res)
        compiled = torch.compile(model, backend="aot_eager")
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        for step in range(4):
            x = torch.randn(8, 3, res, res, generator=g)
            y = torch.randint(0, 10, (8,), generator=g)
            loss = nn.functional.cross_entropy(compiled(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"res {res}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
