import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FAMILIES = {
    "llama-tiny": {"dim": 32, "rms_norm_eps": 1e-5},
    "qwen-tiny": {"dim": 32, "rms_norm_eps": 1e-6},
    "mistral-tiny": {"dim": 32, "rms_norm_eps": 1e-5},
    "gemma-tiny": {"dim": 32, "rms_norm_eps": 1e-6},
}


class Block(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.norm = nn.RMSNorm(dim, eps=eps)
        self.up = nn.Linear(dim, 4 * dim)
        self.down = nn.Linear(4 * dim, dim)

    def forward(self, x):
        return x + self.down(F.silu(self.up(self.norm(x))))


class TinyDecoder(nn.Module):
    def __init__(self, dim, eps, layers=2):
        super().__init__()
        self.blocks = nn.ModuleList(Block(dim, eps) for _ in range(layers))
        self.final_norm = nn.RMSNorm(dim, eps=eps)

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.final_norm(x)


@torch.compile(backend="aot_eager")
def embed_batch(model, x):
    h = model(x)
    return F.normalize(h.mean(dim=1), dim=-1)


def main():
    models = {name: TinyDecoder(cfg["dim"], cfg["rms_norm_eps"]).eval()
              for name, cfg in FAMILIES.items()}
    x = torch.randn(4, 10, 32)
    with torch.no_grad():
        for rnd in range(2):
            for name, model in models.items():
                emb = embed_batch(model, x)
                print(rnd, name, round(emb.norm(dim=-1).mean().item(), 4))


if __name__ == "__main__":
    main()
