import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import pack, rearrange, unpack

torch.manual_seed(0)

DIM = 32
FEATURE_DIMS = {"image": 48, "text": 24, "audio": 40}


class FusionEncoder(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.proj = nn.ModuleDict({k: nn.Linear(v, DIM) for k, v in FEATURE_DIMS.items()})
        self.cls = nn.Parameter(torch.zeros(1, DIM))
        layer = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.head = nn.Linear(DIM, n_classes)

    def forward(self, feats):
        b = next(iter(feats.values())).shape[0]
        tokens = [self.cls.expand(b, DIM)]
        for name, x in feats.items():
            tokens.append(self.proj[name](x))
        x, ps = pack(tokens, "b * d")
        x = self.encoder(x)
        cls, *_ = unpack(x, ps, "b * d")
        return self.head(cls)


def make_batch(source, b=8):
    # image patches (4x4 grid), caption tokens, optional audio frames
    img = rearrange(torch.randn(b, 4, 4, 48), "b h w c -> b (h w) c")
    feats = {"image": img, "text": torch.randn(b, 12, 24)}
    if source == "video":
        feats["audio"] = torch.randn(b, 10, 40)
    return feats, torch.randint(0, 5, (b,))


def main():
    model = FusionEncoder()
    cmodel = torch.compile(model, backend="aot_eager")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    # mixture: web image-text pairs and video clips with sound
    schedule = ["web", "web", "video", "web", "web", "video", "web", "video"]
    for step, source in enumerate(schedule):
        feats, y = make_batch(source)
        loss = F.cross_entropy(cmodel(feats), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(f"step {step} source={source} loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
