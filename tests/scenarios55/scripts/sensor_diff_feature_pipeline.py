import torch
import torch.nn as nn

torch.manual_seed(0)

# each indicator is a finite difference of some order over the raw signal
INDICATORS = [
    ("velocity", 1),
    ("acceleration", 2),
    ("jerk", 3),
]


@torch.compile(backend="aot_eager")
def indicator(signal, order, window):
    d = torch.diff(signal, n=order, dim=-1)
    d = d[..., -window:]
    return torch.stack([d.mean(-1), d.std(-1), d.abs().amax(-1)], dim=-1)


def read_chunks(n_chunks=3, sensors=4, length=64):
    t = torch.linspace(0, 6.28, length)
    for i in range(n_chunks):
        base = torch.sin(t * (i + 1))[None, :].expand(sensors, length)
        yield base + 0.05 * torch.randn(sensors, length)


def main():
    head = nn.Linear(3 * len(INDICATORS), 1)
    rows = []
    for chunk in read_chunks():
        feats = [indicator(chunk, order, 32) for _, order in INDICATORS]
        rows.append(torch.cat(feats, dim=-1))
    x = torch.cat(rows)
    with torch.no_grad():
        score = head(x).squeeze(-1)
    print("features", tuple(x.shape), "mean score", round(score.mean().item(), 4))


if __name__ == "__main__":
    main()
