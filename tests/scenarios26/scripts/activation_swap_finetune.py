# Tabular regressor trained with GELU. The target runtime has no erf kernel,
# so after pre-training we switch the activations to SiLU and fine-tune.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResMLP(nn.Module):
    def __init__(self, d_in=12, width=64, depth=3):
        super().__init__()
        self.inp = nn.Linear(d_in, width)
        self.blocks = nn.ModuleList(
            nn.ModuleDict({"fc": nn.Linear(width, width), "act": nn.GELU()})
            for _ in range(depth)
        )
        self.out = nn.Linear(width, 1)

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = h + blk["act"](blk["fc"](h))
        return self.out(h).squeeze(-1)


model = ResMLP()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

X = torch.randn(256, 12)
Y = X[:, :3].sum(-1) + 0.1 * torch.randn(256)


def epoch():
    total = 0.0
    for i in range(0, 256, 64):
        loss = F.mse_loss(compiled(X[i:i + 64]), Y[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / 4


for e in range(2):
    print("pretrain", e, round(epoch(), 4))

for blk in model.blocks:
    blk["act"] = nn.SiLU()
for g in opt.param_groups:
    g["lr"] = 2e-4

for e in range(2):
    print("finetune", e, round(epoch(), 4))
