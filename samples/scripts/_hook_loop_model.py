"""A model whose forward loops over its blocks, with a metrics hook on each
block (shared by hook_loop.py and hook_loop_disabled.py; not run on its own).

The hook reads `collector.enabled` and records each block's output norm when
it is on. Plain, Dynamo traces the hook into the graph and guards on the flag:
turning it on at step 4 recompiles `Net.forward`. Decorated with
`@torch._dynamo.disable` (guardscope's advice for a hook that reads mutable
state), the hook is a graph break inside the `for block in self.blocks` loop:
Dynamo skips `Net.forward` and runs it eagerly on every call, compiling only
each block.
"""

import time

import torch
import torch.nn as nn

from _common import print_compile_summary, unique_graphs


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
    def __init__(self, d=32, depth=3):
        super().__init__()
        self.embed = nn.Linear(d, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(depth))
        self.head = nn.Linear(d, 1)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def add_metrics_hooks(model, collector, disable):
    def record_norm(module, args, output):
        if collector.enabled:
            collector.norms.append(output.detach().norm())

    hook = torch._dynamo.disable(record_norm) if disable else record_norm
    for block in model.blocks:
        block.register_forward_hook(hook)


def train(label, disable):
    torch.manual_seed(0)
    model = Net()
    collector = Collector()
    add_metrics_hooks(model, collector, disable)
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(1, 7):
        collector.enabled = step >= 4
        x = torch.randn(8, 32)
        before = unique_graphs()
        t0 = time.perf_counter()
        loss = compiled(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ms = (time.perf_counter() - t0) * 1000
        print(f"[{label}] step {step}  enabled={collector.enabled}  {ms:8.1f} ms  new graphs {unique_graphs() - before}")
    print_compile_summary(label)
