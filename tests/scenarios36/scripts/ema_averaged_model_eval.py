import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

torch.manual_seed(0)

EPOCHS = 3
STEPS = 5


class TabularNet(nn.Module):
    def __init__(self, d_in=20, n_classes=4):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(d_in, 64), nn.BatchNorm1d(64), nn.GELU(),
            nn.Linear(64, 64), nn.BatchNorm1d(64), nn.GELU(),
        )
        self.head = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


@torch.compile(backend="aot_eager")
def eval_batch(net, x, y):
    logits = net(x)
    loss = F.cross_entropy(logits, y)
    acc = (logits.argmax(-1) == y).float().mean()
    return loss, acc


def evaluate(net, x, y):
    net.eval()
    with torch.no_grad():
        loss, acc = eval_batch(net, x, y)
    return loss.item(), acc.item()


def main():
    w = torch.randn(20, 4)
    x_train = torch.randn(EPOCHS * STEPS, 32, 20)
    y_train = (x_train @ w).argmax(-1)
    x_val = torch.randn(128, 20)
    y_val = (x_val @ w).argmax(-1)

    model = TabularNet()
    ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

    i = 0
    for epoch in range(EPOCHS):
        model.train()
        for _ in range(STEPS):
            loss = F.cross_entropy(model(x_train[i]), y_train[i])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            ema.update_parameters(model)
            i += 1
        live = evaluate(model, x_val, y_val)
        avg = evaluate(ema, x_val, y_val)
        print(f"epoch {epoch} live loss={live[0]:.4f} acc={live[1]:.3f} | ema loss={avg[0]:.4f} acc={avg[1]:.3f}")


if __name__ == "__main__":
    main()
