"""hook_state, before: a forward hook on the model's first layer (called
once in forward, not in a loop) reads a flag the training loop turns on at step 3, and appends a norm
while it is on: Dynamo traces the hook and recompiles on the flag and on the
list it fills."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Collector:
    def __init__(self):
        self.enabled = False
        self.norms = []


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(16, 16)
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        return self.head(torch.relu(self.embed(x)))


model = Model()
collector = Collector()


def record_norm(module, args, output):
    if collector.enabled:
        collector.norms.append(output.detach().norm())


model.embed.register_forward_hook(record_norm)
compiled = torch.compile(model, backend="aot_eager")
for step in range(1, 6):
    collector.enabled = step >= 3
    y = compiled(torch.randn(8, 16))
