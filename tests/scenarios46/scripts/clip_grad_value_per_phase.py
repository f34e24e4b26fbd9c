import torch
import torch.nn as nn

PHASES = [
    {"name": "warmup", "steps": 3, "lr": 1e-3, "clip_value": 0.5},
    {"name": "main", "steps": 4, "lr": 3e-3, "clip_value": 1.0},
    {"name": "anneal", "steps": 3, "lr": 5e-4, "clip_value": 0.25},
]


def make_model():
    return nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 1))


def train_step(model, x, y, clip_value):
    pred = model(x)
    loss = nn.functional.mse_loss(pred, y)
    loss.backward()
    torch.nn.utils.clip_grad_value_(model.parameters(), clip_value)
    return loss.detach()


def main():
    torch.manual_seed(0)
    model = make_model()
    step_fn = torch.compile(train_step, backend="aot_eager")
    w = torch.randn(12, 1)
    for phase in PHASES:
        opt = torch.optim.SGD(model.parameters(), lr=phase["lr"], momentum=0.9)
        for i in range(phase["steps"]):
            x = torch.randn(32, 12)
            y = x @ w + 0.1 * torch.randn(32, 1)
            opt.zero_grad()
            loss = step_fn(model, x, y, phase["clip_value"])
            opt.step()
            print(phase["name"], i, round(loss.item(), 4))


if __name__ == "__main__":
    main()
