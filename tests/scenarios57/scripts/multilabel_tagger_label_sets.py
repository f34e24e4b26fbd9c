import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Tagger(nn.Module):
    def __init__(self, d_in=32, n_labels=6):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 48), nn.ReLU())
        self.head = nn.Linear(48, n_labels)

    def forward(self, x):
        return self.head(self.enc(x))


@torch.compile(backend="aot_eager")
def tag_loss(model, x, y, weight):
    return F.multilabel_soft_margin_loss(model(x), y, weight=weight)


def label_weights(freqs):
    if freqs is None:
        return None
    f = torch.tensor(freqs)
    return (1.0 / f) / (1.0 / f).mean()


# one tagger per label set; some sets are reweighted for rare labels
LABEL_SETS = [
    ("genres", None),
    ("moods", [0.4, 0.3, 0.1, 0.1, 0.05, 0.05]),
    ("instruments", [0.5, 0.2, 0.2, 0.05, 0.03, 0.02]),
]

for name, freqs in LABEL_SETS:
    model = Tagger()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    w = label_weights(freqs)
    for step in range(5):
        x = torch.randn(40, 32)
        y = (torch.rand(40, 6) < 0.3).float()
        loss = tag_loss(model, x, y, w)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name}: {loss.item():.4f}")
