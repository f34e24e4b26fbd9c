"""subclass_metadata: a wrapper tensor subclass whose metadata (a scale) changes.

ScaledTensor keeps a Python float `scale` in its __tensor_flatten__ metadata;
Dynamo guards on that metadata (`___check_metadata_...`). A call with another
scale fails it (0/1).
"""
import torch
from torch.utils._pytree import tree_map

torch.manual_seed(0)


class ScaledTensor(torch.Tensor):
    @staticmethod
    def __new__(cls, data, scale):
        return torch.Tensor._make_wrapper_subclass(cls, data.shape, dtype=data.dtype, device=data.device)

    def __init__(self, data, scale):
        self.data_ = data
        self.scale = scale

    def __tensor_flatten__(self):
        return ["data_"], {"scale": self.scale}

    @staticmethod
    def __tensor_unflatten__(inner, meta, outer_size, outer_stride):
        return ScaledTensor(inner["data_"], meta["scale"])

    def __repr__(self):
        return f"ScaledTensor({self.data_}, scale={self.scale})"

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        unwrap = lambda t: t.data_ * t.scale if isinstance(t, ScaledTensor) else t
        return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))


@torch.compile(backend="aot_eager")
def f(x):
    return x * 2


f(ScaledTensor(torch.randn(4), 1.0))     # 0/0
f(ScaledTensor(torch.randn(4), 0.5))     # 0/1: subclass metadata changed
