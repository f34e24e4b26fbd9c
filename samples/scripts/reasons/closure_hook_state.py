"""closure_hook_state: a forward hook whose closure reads `collector.enabled`.

The hook is installed (through a helper function) BEFORE compiling; the flag
flips after the first compile, so the guard on the closure cell fails.
"""
import torch

torch.manual_seed(0)


class Collector:
    def __init__(self):
        self.enabled = False
        self.norms = []


def install_hooks(model, collector):
    def activation_hook(module, inputs, output):
        if not collector.enabled:
            return
        collector.norms.append(output.detach().norm())

    for name, mod in model.named_modules():
        if isinstance(mod, torch.nn.Linear):
            mod.register_forward_hook(activation_hook)


model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
collector = Collector()
install_hooks(model, collector)
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(3, 4)
compiled(x)                # 0/0: collector.enabled == False
collector.enabled = True
compiled(x)                # 0/1: closure guard on collector.enabled fails
