"""Multi-task probing on one frozen timm backbone: each task head reads
intermediate features from its own set of blocks via forward_intermediates."""

import timm
import torch
from torch import nn

TASKS = {
    "depth": {"indices": [1, 3], "out": 1},
    "segment": {"indices": [0, 1, 2, 3], "out": 5},
    "classify": {"indices": 1, "out": 10},
}


class Probe(nn.Module):
    def __init__(self, chans, out):
        super().__init__()
        self.proj = nn.ModuleList(nn.Conv2d(c, 16, 1) for c in chans)
        self.head = nn.Linear(16, out)

    def forward(self, feats):
        pooled = sum(p(f).mean(dim=(2, 3)) for p, f in zip(self.proj, feats))
        return self.head(pooled)


def main():
    torch.manual_seed(0)
    backbone = timm.create_model(
        "resnet18", pretrained=False, num_classes=0, drop_rate=0.0
    ).eval()
    for p in backbone.parameters():
        p.requires_grad_(False)
    chans = [i["num_chs"] for i in backbone.feature_info]

    def features(x, indices):
        return backbone.forward_intermediates(x, indices=indices, intermediates_only=True)

    feats_fn = torch.compile(features, backend="aot_eager")

    probes = {}
    for name, spec in TASKS.items():
        idx = spec["indices"]
        used = chans[-idx:] if isinstance(idx, int) else [chans[i] for i in idx]
        probes[name] = Probe(used, spec["out"])
    opts = {n: torch.optim.SGD(p.parameters(), lr=0.05) for n, p in probes.items()}

    g = torch.Generator().manual_seed(1)
    for step in range(6):
        for name, spec in TASKS.items():
            x = torch.randn(4, 3, 32, 32, generator=g)
            with torch.no_grad():
                feats = feats_fn(x, spec["indices"])
            out = probes[name](feats)
            loss = out.pow(2).mean()
            opts[name].zero_grad()
            loss.backward()
            opts[name].step()
        print(f"step {step}: last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
