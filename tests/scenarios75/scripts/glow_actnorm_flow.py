import math

import torch
import torch.nn as nn

torch.manual_seed(0)

D = 8


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))
        self.initialized = False

    def forward(self, x):
        if not self.initialized:
            # data-dependent init: zero mean, unit variance on the first batch
            with torch.no_grad():
                self.loc.copy_(-x.mean(0))
                self.log_scale.copy_(-torch.log(x.std(0) + 1e-6))
            self.initialized = True
        y = (x + self.loc) * torch.exp(self.log_scale)
        return y, self.log_scale.sum().expand(x.shape[0])


class AffineCoupling(nn.Module):
    def __init__(self, dim, flip):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(dim // 2, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        if self.flip:
            a, b = b, a
        log_s, t = self.net(a).chunk(2, dim=1)
        log_s = torch.tanh(log_s)
        b = b * torch.exp(log_s) + t
        out = torch.cat([b, a] if self.flip else [a, b], dim=1)
        return out, log_s.sum(1)


class Flow(nn.Module):
    def __init__(self, dim, depth=3):
        super().__init__()
        layers = []
        for k in range(depth):
            layers += [ActNorm(dim), AffineCoupling(dim, flip=k % 2 == 1)]
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet


def nll(z, logdet):
    log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * D * math.log(2 * math.pi)
    return -(log_pz + logdet).mean()


flow = Flow(D)
flow_c = torch.compile(flow, backend="aot_eager")
opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
data = torch.randn(256, D) @ torch.randn(D, D) + 3.0

for epoch in range(2):
    perm = torch.randperm(256)
    for i in range(0, 256, 64):
        z, logdet = flow_c(data[perm[i : i + 64]])
        loss = nll(z, logdet)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: nll {loss.item():.3f}")
