"""closure_state: a compiled inner function captures `config`; its attribute flips."""
import types

import torch

torch.manual_seed(0)


def make_step(config):
    @torch.compile(backend="aot_eager")
    def step(x):
        if config.use_bias:
            return x * 2 + 1
        return x * 2

    return step


config = types.SimpleNamespace(use_bias=False)
step = make_step(config)
x = torch.randn(4)
step(x)                 # 0/0: config.use_bias == False
config.use_bias = True
step(x)                 # 0/1: closure guard on config.use_bias fails
