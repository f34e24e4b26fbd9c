import torch
import torch.nn as nn
from torch.func import functional_call, grad

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, d_in=16, hidden=32, n_cls=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_cls)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


model = Classifier()
params = {k: v.detach().clone() for k, v in model.named_parameters()}


def loss_fn(p, x, y):
    logits = functional_call(model, p, (x,))
    return nn.functional.cross_entropy(logits, y)


@torch.compile(backend="aot_eager")
def grads_of(p, x, y, argnums):
    return grad(loss_fn, argnums=argnums)(p, x, y)


lr = 0.1
for epoch in range(2):
    for step in range(3):
        x = torch.randn(32, 16)
        y = torch.randint(0, 4, (32,))
        g = grads_of(params, x, y, 0)
        params = {k: v - lr * g[k] for k, v in params.items()}

    # saliency maps for a few validation examples
    xv = torch.randn(32, 16)
    yv = torch.randint(0, 4, (32,))
    sal = grads_of(params, xv, yv, 1).abs()
    print(f"epoch {epoch}: top feature {int(sal.mean(0).argmax())}")

    # input and parameter gradients together for an audit report
    gp, gx = grads_of(params, xv, yv, (0, 1))
    print(f"  audit: |g_fc1|={gp['fc1.weight'].norm():.4f} |g_x|={gx.norm():.4f}")
