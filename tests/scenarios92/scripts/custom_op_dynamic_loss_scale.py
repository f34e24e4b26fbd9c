"""Training with a torch.library custom op and a hand-written dynamic loss scaler."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@torch.library.custom_op("train92::scaled_swish", mutates_args=())
def scaled_swish(x: torch.Tensor, beta: float) -> torch.Tensor:
    return x * torch.sigmoid(beta * x)


@scaled_swish.register_fake
def _(x, beta):
    return torch.empty_like(x)


def _setup(ctx, inputs, output):
    x, beta = inputs
    ctx.save_for_backward(x)
    ctx.beta = beta


def _backward(ctx, grad):
    (x,) = ctx.saved_tensors
    s = torch.sigmoid(ctx.beta * x)
    return grad * (s + ctx.beta * x * s * (1 - s)), None


scaled_swish.register_autograd(_backward, setup_context=_setup)


class MLP(nn.Module):
    def __init__(self, d=32, h=64, n_cls=5):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.fc2 = nn.Linear(h, n_cls)

    def forward(self, x):
        return self.fc2(scaled_swish(self.fc1(x), 1.0))


model = MLP()
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def scaled_loss(x, y, loss_scale):
    logits = model(x)
    return F.cross_entropy(logits, y) * loss_scale


class DynamicLossScaler:
    def __init__(self, init_scale=1024.0, growth_interval=3):
        self.scale = init_scale
        self.growth_interval = growth_interval
        self.good_steps = 0

    def update(self, found_inf):
        if found_inf:
            self.scale /= 2.0
            self.good_steps = 0
        else:
            self.good_steps += 1
            if self.good_steps % self.growth_interval == 0:
                self.scale *= 2.0


scaler = DynamicLossScaler()
for step in range(8):
    x = torch.randn(16, 32)
    y = torch.randint(0, 5, (16,))
    opt.zero_grad()
    loss = scaled_loss(x, y, scaler.scale)
    loss.backward()
    found_inf = False
    for p in model.parameters():
        p.grad.div_(scaler.scale)
        if not torch.isfinite(p.grad).all():
            found_inf = True
    # simulate an fp16 overflow on step 1 (as a real run sees occasionally)
    if step == 1:
        found_inf = True
    if not found_inf:
        opt.step()
    scaler.update(found_inf)
    print(f"step {step} loss {loss.item() / 1024:.4f} next scale {scaler.scale}")
