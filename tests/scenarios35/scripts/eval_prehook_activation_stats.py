"""Train a small classifier and, during each evaluation pass, collect the
input statistics of the classifier head with a temporary pre-hook."""

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, dim=20, hidden=48, classes=5):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.head(self.body(x))


def main():
    torch.manual_seed(0)
    x = torch.randn(160, 20)
    y = torch.randint(0, 5, (160,))
    x_val, y_val = torch.randn(32, 20), torch.randint(0, 5, (32,))

    model = Classifier()
    model.compile(backend="aot_eager")
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

    for epoch in range(3):
        model.train()
        for i in range(0, 160, 32):
            loss = nn.functional.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()

        # every other epoch, look at what the head receives while evaluating
        stats = []
        probe = epoch % 2 == 0
        if probe:

            def record(module, args):
                stats.append(args[0].detach().abs().mean())

            handle = model.head.register_forward_pre_hook(record)
        model.eval()
        with torch.no_grad():
            acc = (model(x_val).argmax(-1) == y_val).float().mean()
        if probe:
            handle.remove()
        msg = f"epoch {epoch}: loss {loss.item():.3f} acc {acc.item():.2f}"
        if stats:
            msg += f" head input {stats[0].item():.3f}"
        print(msg)


if __name__ == "__main__":
    main()
