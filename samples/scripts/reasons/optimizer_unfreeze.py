"""optimizer_unfreeze: a compiled optimizer step under gradual unfreezing.

A 3-layer MLP starts with only its head trainable; every parameter is in the
optimizer, and opt.step() is compiled. At step 3 layer 1 is unfrozen, at step
5 layer 0: each time a parameter's .grad goes from None to a tensor and the
compiled step recompiles (optimizer state, once per change).
"""
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8), torch.nn.Linear(8, 2))
for p in model[0].parameters():
    p.requires_grad_(False)
for p in model[1].parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


@torch.compile(backend="aot_eager")
def step():
    opt.step()


for i in range(1, 8):
    if i == 3:
        for p in model[1].parameters():
            p.requires_grad_(True)
    if i == 5:
        for p in model[0].parameters():
            p.requires_grad_(True)
    loss = model(torch.randn(4, 8)).sum()
    loss.backward()
    step()
    opt.zero_grad()
