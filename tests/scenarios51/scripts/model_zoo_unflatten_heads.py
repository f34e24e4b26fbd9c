import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

MODEL_SIZES = {
    "small": {"dim": 32, "heads": 2},
    "base": {"dim": 32, "heads": 4},
    "large": {"dim": 32, "heads": 8},
}


def multihead_pool(x, w_score, heads):
    # x: (batch, tokens, dim) -> per-head attention pooling
    b, t, d = x.shape
    xh = x.unflatten(-1, (heads, d // heads))
    logits = torch.einsum("bthc,hc->bth", xh, w_score)
    attn = logits.softmax(dim=1)
    pooled = torch.einsum("bth,bthc->bhc", attn, xh)
    return pooled.flatten(1)


compiled_pool = torch.compile(multihead_pool, backend="aot_eager")


class Encoder(nn.Module):
    def __init__(self, dim, heads, n_classes=4):
        super().__init__()
        self.heads = heads
        self.inp = nn.Linear(12, dim)
        self.score = nn.Parameter(torch.randn(heads, dim // heads) * 0.1)
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, x):
        h = torch.relu(self.inp(x))
        return self.cls(compiled_pool(h, self.score, self.heads))


def evaluate_zoo(x, y):
    results = {}
    for size, cfg in MODEL_SIZES.items():
        torch.manual_seed(2)
        model = Encoder(cfg["dim"], cfg["heads"])
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(3):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        results[size] = loss.item()
    return results


def main():
    x = torch.randn(16, 9, 12)
    y = torch.randint(0, 4, (16,))
    for round_ in range(2):
        print(round_, evaluate_zoo(x, y))


if __name__ == "__main__":
    main()
