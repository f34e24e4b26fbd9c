import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SlimMLP(nn.Module):
    def __init__(self, d_in=20, widths=(64, 64), n_cls=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, widths[0])
        self.bn1 = nn.BatchNorm1d(widths[0])
        self.fc2 = nn.Linear(widths[0], widths[1])
        self.bn2 = nn.BatchNorm1d(widths[1])
        self.head = nn.Linear(widths[1], n_cls)

    def forward(self, x):
        x = F.relu(self.bn1(self.fc1(x)))
        x = F.relu(self.bn2(self.fc2(x)))
        return self.head(x)


def shrink_linear(lin, out_idx=None, in_idx=None):
    w, b = lin.weight.data, lin.bias.data
    if out_idx is not None:
        w, b = w[out_idx], b[out_idx]
    if in_idx is not None:
        w = w[:, in_idx]
    new = nn.Linear(w.shape[1], w.shape[0])
    new.weight.data.copy_(w)
    new.bias.data.copy_(b)
    return new


def shrink_bn(bn, idx):
    new = nn.BatchNorm1d(len(idx))
    for name in ("weight", "bias", "running_mean", "running_var"):
        getattr(new, name).data.copy_(getattr(bn, name).data[idx])
    return new


@torch.no_grad()
def slim(model, keep_ratio):
    # keep the channels with the largest BatchNorm scale factors
    keep1 = model.bn1.weight.abs().argsort(descending=True)[: int(model.bn1.num_features * keep_ratio)].sort().values
    keep2 = model.bn2.weight.abs().argsort(descending=True)[: int(model.bn2.num_features * keep_ratio)].sort().values
    model.fc1 = shrink_linear(model.fc1, out_idx=keep1)
    model.bn1 = shrink_bn(model.bn1, keep1)
    model.fc2 = shrink_linear(model.fc2, out_idx=keep2, in_idx=keep1)
    model.bn2 = shrink_bn(model.bn2, keep2)
    model.head = shrink_linear(model.head, in_idx=keep2)


def bn_l1(model, lam=1e-4):
    return lam * sum(m.weight.abs().sum() for m in model.modules() if isinstance(m, nn.BatchNorm1d))


x_all = torch.randn(384, 20)
y_all = (x_all[:, :4] + 0.3 * x_all[:, 4:8]).argmax(1)

model = SlimMLP()
cmodel = torch.compile(model, backend="aot_eager")

for rnd in range(4):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        for i in range(0, 384, 64):
            out = cmodel(x_all[i:i + 64])
            loss = F.cross_entropy(out, y_all[i:i + 64]) + bn_l1(model)
            opt.zero_grad()
            loss.backward()
            opt.step()
    n_params = sum(p.numel() for p in model.parameters())
    print(f"round {rnd} width {model.bn1.num_features}/{model.bn2.num_features} params {n_params} loss {loss.item():.3f}")
    if rnd < 3:
        slim(model, keep_ratio=0.75)
