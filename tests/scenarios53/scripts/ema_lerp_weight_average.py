import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_model():
    return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))


@torch.compile(backend="aot_eager")
def ema_update(ema_params, params, weight):
    for e, p in zip(ema_params, params):
        e.copy_(torch.lerp(e, p, weight))


def ema_weight(step, schedule):
    if schedule == "warmup":
        decay = min(0.999, (1 + step) / (10 + step))
    else:
        decay = 0.99
    return 1.0 - decay


def main():
    model = make_model()
    ema = make_model()
    ema.load_state_dict(model.state_dict())
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(64, 16)
    y = torch.randint(0, 4, (64,))
    step = 0
    for schedule in ("constant", "warmup"):
        for _ in range(4):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                ema_update(list(ema.parameters()), list(model.parameters()),
                           ema_weight(step, schedule))
            step += 1
        with torch.no_grad():
            ema_loss = F.cross_entropy(ema(x), y).item()
        print(schedule, round(loss.item(), 4), round(ema_loss, 4))


if __name__ == "__main__":
    main()
