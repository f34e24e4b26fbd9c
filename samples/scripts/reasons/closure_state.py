"""closure_state: the compiled step calls a function that captured `config`; its attribute flips."""
import types

import torch

torch.manual_seed(0)


def make_bias(config):
    def add_bias(x):
        if config.use_bias:
            return x + 1
        return x

    return add_bias


config = types.SimpleNamespace(use_bias=False)
add_bias = make_bias(config)


@torch.compile(backend="aot_eager")
def step(x):
    return add_bias(x * 2)


x = torch.randn(4)
step(x)                 # 0/0: G['add_bias'].__closure__[0].cell_contents.use_bias == False
config.use_bias = True
step(x)                 # 0/1: the closure cell's attribute changed
