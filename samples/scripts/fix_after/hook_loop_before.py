"""hook_loop, before: a metrics hook on each block of a model whose forward
loops over its blocks; the hook reads a flag turned on at step 3, so
Net.forward recompiles (closure_hook_state)."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Collector:
    def __init__(self):
        self.enabled = False
        self.norms = []


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        return x + torch.relu(self.fc(x))


class Net(nn.Module):
    def __init__(self, d=16, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(depth))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


model = Net()
collector = Collector()


def record_norm(module, args, output):
    if collector.enabled:
        collector.norms.append(output.detach().norm())


for block in model.blocks:
    block.register_forward_hook(record_norm)
compiled = torch.compile(model, backend="aot_eager")
for step in range(1, 6):
    collector.enabled = step >= 3
    y = compiled(torch.randn(8, 16))
