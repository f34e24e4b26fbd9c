# A plain training loop: the last batch of each epoch is short (a shape
# recompile), then a forward hook's flag is switched on for evaluation.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
state = {"collect": False}
seen = []


def collect(module, inputs, output):
    if state["collect"]:
        seen.append(output.detach().abs().mean())


model[1].register_forward_hook(collect)
compiled = torch.compile(model, backend="eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(2):
    for batch in [8, 8, 8, 5]:
        x = torch.randn(batch, 16)
        loss = compiled(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
state["collect"] = True
with torch.no_grad():
    compiled(torch.randn(8, 16))
print(f"collected {len(seen)}")
