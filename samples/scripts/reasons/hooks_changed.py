"""hooks_changed: forward hooks added to the compiled model after compile.

With the default torch._dynamo.config.skip_nnmodule_hook_guards = True, hooks
added after the first compile (on a submodule OR on the top-level module) are
silently ignored by the compiled code: no guard, no recompile, the hook never
runs. With skip_nnmodule_hook_guards = False, Dynamo guards on the hook dicts
and adding a hook recompiles.
"""
import torch

torch.manual_seed(0)
torch._dynamo.config.skip_nnmodule_hook_guards = False


def scale_hook(module, inputs, output):
    return output * 1.0


model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(2, 4)
compiled(x)                                  # 0/0: no hooks
model[0].register_forward_hook(scale_hook)
compiled(x)                                  # 0/1: submodule hook dict changed
model.register_forward_hook(scale_hook)
compiled(x)                                  # 0/2: top-level hook dict changed
