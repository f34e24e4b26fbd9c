import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_CLASSES = 4


class Classifier(nn.Module):
    def __init__(self, d_in=16, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, N_CLASSES))

    def forward(self, x):
        return self.net(x)


model = Classifier()


def train_loss(x, y, class_weights=None):
    logits = model(x)
    return F.cross_entropy(logits, y, weight=class_weights)


compiled_train_loss = torch.compile(train_loss, backend="aot_eager")


def sample(n, centers):
    # imbalanced: class 0 dominates
    y = torch.multinomial(torch.tensor([0.55, 0.25, 0.15, 0.05]), n, replacement=True)
    x = centers[y] + 0.8 * torch.randn(n, 16)
    return x, y


def per_class_recall(centers):
    with torch.no_grad():
        x, y = sample(256, centers)
        pred = model(x).argmax(-1)
    recall = torch.zeros(N_CLASSES)
    for c in range(N_CLASSES):
        mask = y == c
        recall[c] = (pred[mask] == c).float().mean() if mask.any() else 1.0
    return recall


def main():
    centers = torch.randn(N_CLASSES, 16)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    class_weights = None
    for epoch in range(3):
        for _ in range(6):
            x, y = sample(32, centers)
            opt.zero_grad()
            loss = compiled_train_loss(x, y, class_weights)
            loss.backward()
            opt.step()
        recall = per_class_recall(centers)
        # upweight the classes the model is missing
        class_weights = (1.0 - recall + 0.1) / (1.0 - recall + 0.1).mean()
        print(f"epoch {epoch} loss {loss.item():.4f} recall {recall.tolist()}")


if __name__ == "__main__":
    main()
