import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
activations = {}


def save_output(module, inputs, output):
    activations["out"] = output.detach()


# debug hook while checking the first few steps
handle = model.register_forward_hook(save_output)
compiled = torch.compile(model, backend="aot_eager")

for step in range(5):
    if step == 2:
        handle.remove()  # done debugging
    with torch.no_grad():
        out = compiled(torch.randn(8, 16))
    print(f"step {step} out {out.mean().item():.4f} saved {sorted(activations)}")
