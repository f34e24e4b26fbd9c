import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, ch=(3, 8, 16)):
        super().__init__()
        self.convs = nn.ModuleList(
            nn.Sequential(nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU())
            for a, b in zip(ch[:-1], ch[1:])
        )

    def forward(self, x, ceil_mode=False, return_indices=False):
        feats, indices, sizes = [], [], []
        for conv in self.convs:
            x = conv(x)
            sizes.append(x.shape[-2:])
            if return_indices:
                x, idx = F.max_pool2d(x, 2, 2, ceil_mode=ceil_mode, return_indices=True)
                indices.append(idx)
            else:
                x = F.max_pool2d(x, 2, 2, ceil_mode=ceil_mode)
            feats.append(x)
        return feats, indices, sizes


class UnpoolDecoder(nn.Module):
    def __init__(self, ch=(16, 8), n_cls=4):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in zip(ch, ch[1:] + (ch[-1],)))
        self.out = nn.Conv2d(ch[-1], n_cls, 1)

    def forward(self, feats, indices, sizes):
        x = feats[-1]
        for conv, idx, size in zip(self.convs, reversed(indices), reversed(sizes)):
            x = F.max_unpool2d(x, idx, 2, 2, output_size=size)
            x = F.relu(conv(x))
        return self.out(x)


class UpsampleDecoder(nn.Module):
    def __init__(self, ch=16, n_cls=4):
        super().__init__()
        self.conv = nn.Conv2d(ch, 8, 3, padding=1)
        self.out = nn.Conv2d(8, n_cls, 1)

    def forward(self, feats, indices, sizes):
        x = F.relu(self.conv(feats[-1]))
        x = F.interpolate(x, size=sizes[0], mode="bilinear", align_corners=False)
        return self.out(x)


BACKBONES = {
    "segnet": dict(ceil_mode=False, return_indices=True, decoder=UnpoolDecoder),
    "fcn_lite": dict(ceil_mode=True, return_indices=False, decoder=UpsampleDecoder),
}

encoder = Encoder()
enc = torch.compile(encoder, backend="aot_eager")
decoders = {k: v["decoder"]() for k, v in BACKBONES.items()}
params = list(encoder.parameters()) + [p for d in decoders.values() for p in d.parameters()]
opt = torch.optim.Adam(params, lr=1e-3)

images = torch.randn(6, 4, 3, 30, 30)
masks = torch.randint(0, 4, (6, 4, 30, 30))

for epoch in range(2):
    for name, cfg in BACKBONES.items():
        dec = decoders[name]
        total = 0.0
        for img, mask in zip(images, masks):
            feats, idx, sizes = enc(img, ceil_mode=cfg["ceil_mode"], return_indices=cfg["return_indices"])
            logits = dec(feats, idx, sizes)
            logits = F.interpolate(logits, size=mask.shape[-2:], mode="nearest")
            loss = F.cross_entropy(logits, mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} {name} loss {total / len(images):.4f}")
