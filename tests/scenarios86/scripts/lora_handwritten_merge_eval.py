import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.base.bias.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.empty(rank, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / rank
        self.merged = False

    @torch.no_grad()
    def merge(self):
        if not self.merged:
            self.base.weight += (self.lora_B @ self.lora_A) * self.scaling
            self.merged = True

    @torch.no_grad()
    def unmerge(self):
        if self.merged:
            self.base.weight -= (self.lora_B @ self.lora_A) * self.scaling
            self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling
        return out


class Encoder(nn.Module):
    def __init__(self, d=32, n_cls=3):
        super().__init__()
        self.q = LoRALinear(nn.Linear(d, d))
        self.v = LoRALinear(nn.Linear(d, d))
        self.out = nn.Linear(d, n_cls)

    def forward(self, x):
        h = torch.tanh(self.q(x)) * torch.sigmoid(self.v(x))
        return self.out(h.mean(1))


def lora_layers(m):
    return [mod for mod in m.modules() if isinstance(mod, LoRALinear)]


model = Encoder()
params = [p for p in model.parameters() if p.requires_grad]
opt = torch.optim.AdamW(params, lr=2e-3)
cmodel = torch.compile(model, backend="aot_eager")

proj = torch.randn(32, 3)
x_train = torch.randn(96, 10, 32)
y_train = (x_train.mean(1) @ proj).argmax(1)
x_val = torch.randn(48, 10, 32)
y_val = (x_val.mean(1) @ proj).argmax(1)


@torch.no_grad()
def val_logits():
    model.eval()
    out = cmodel(x_val)
    model.train()
    return out


for epoch in range(4):
    for i in range(0, 96, 16):
        loss = F.cross_entropy(cmodel(x_train[i:i + 16]), y_train[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = (val_logits().argmax(1) == y_val).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val acc {acc:.3f}")

# fold the adapters into the base weights for export and check nothing moved
before = val_logits()
for layer in lora_layers(model):
    layer.merge()
after = val_logits()
print(f"max merge diff {(before - after).abs().max().item():.2e}")
torch.save({k: v for k, v in model.state_dict().items() if "lora_" not in k}, "merged.pt")
