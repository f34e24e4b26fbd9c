import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

DATASETS = {
    "clean_reviews": {"label_smoothing": 0.0, "shift": 0.0},
    "crowd_labels": {"label_smoothing": 0.1, "shift": 0.5},
    "weak_labels": {"label_smoothing": 0.2, "shift": -0.5},
}


class TextClassifier(nn.Module):
    def __init__(self, dim=20, classes=6):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())
        self.head = nn.Linear(64, classes)

    def forward(self, x):
        return self.head(self.body(x))


model = TextClassifier()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def train_step(x, y, label_smoothing):
    logits = model(x)
    loss = F.cross_entropy(logits, y, label_smoothing=label_smoothing)
    loss.backward()
    return loss.detach()


step = torch.compile(train_step, backend="aot_eager")


def batches(name, n=4):
    shift = DATASETS[name]["shift"]
    for _ in range(n):
        yield torch.randn(32, 20) + shift, torch.randint(0, 6, (32,))


schedule = ["clean_reviews", "crowd_labels", "clean_reviews", "weak_labels", "crowd_labels"]
for epoch, name in enumerate(schedule):
    ls = DATASETS[name]["label_smoothing"]
    losses = []
    for x, y in batches(name):
        opt.zero_grad()
        losses.append(step(x, y, ls).item())
        opt.step()
    print(f"epoch {epoch} {name} ls={ls} loss {sum(losses) / len(losses):.4f}")
