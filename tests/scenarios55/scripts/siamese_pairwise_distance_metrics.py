import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, d_in=16, d_out=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_out))

    def forward(self, x):
        return self.net(x)


@torch.compile(backend="aot_eager")
def pair_scores(enc, a, b, p):
    za = enc(a)
    zb = enc(b)
    return F.pairwise_distance(za, zb, p=p)


METRICS = {"manhattan": 1.0, "euclidean": 2.0, "chebyshev": float("inf")}


def make_pairs(n=64, d=16):
    a = torch.randn(n, d)
    same = torch.rand(n) > 0.5
    b = torch.where(same[:, None], a + 0.1 * torch.randn(n, d), torch.randn(n, d))
    return a, b, same


def main():
    enc = Encoder().eval()
    batches = [make_pairs() for _ in range(3)]
    report = {}
    with torch.no_grad():
        for name, p in METRICS.items():
            pos, neg = [], []
            for a, b, same in batches:
                d = pair_scores(enc, a, b, p)
                pos.append(d[same])
                neg.append(d[~same])
            report[name] = (torch.cat(pos).mean().item(), torch.cat(neg).mean().item())
    for name, (dp, dn) in report.items():
        print(f"{name:10s} same={dp:.4f} diff={dn:.4f} margin={dn - dp:.4f}")


if __name__ == "__main__":
    main()
