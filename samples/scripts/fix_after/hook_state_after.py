"""hook_state, after: guardscope's fix for the before log applied: the hook
body decorated with @torch._dynamo.disable.
"""
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


@torch._dynamo.disable
def record_norm(module, args, output):
    if collector.enabled:
        collector.norms.append(output.detach().norm())


model.embed.register_forward_hook(record_norm)
compiled = torch.compile(model, backend="aot_eager")
for step in range(1, 6):
    collector.enabled = step >= 3
    y = compiled(torch.randn(8, 16))
