import torch
from torch import nn
from torch.utils._pytree import tree_map

torch.manual_seed(0)


class QuantWeight(torch.Tensor):
    """Weight-only fake quantisation: int8 codes plus a per-row scale, dequantised on use."""

    @staticmethod
    def __new__(cls, codes, scale, bits):
        return torch.Tensor._make_wrapper_subclass(
            cls, codes.shape, dtype=scale.dtype, device=codes.device, requires_grad=False
        )

    def __init__(self, codes, scale, bits):
        self.codes = codes
        self.scale = scale
        self.bits = bits

    @classmethod
    def quantize(cls, w, bits):
        qmax = 2 ** (bits - 1) - 1
        scale = w.abs().amax(dim=1, keepdim=True) / qmax
        codes = torch.clamp(torch.round(w / scale), -qmax, qmax).to(torch.int8)
        return cls(codes, scale, bits)

    def dequantize(self):
        return self.codes.to(self.scale.dtype) * self.scale

    def __repr__(self):
        return f"QuantWeight(bits={self.bits}, shape={tuple(self.shape)})"

    def __tensor_flatten__(self):
        return ["codes", "scale"], {"bits": self.bits}

    @staticmethod
    def __tensor_unflatten__(inner, meta, outer_size, outer_stride):
        return QuantWeight(inner["codes"], inner["scale"], meta["bits"])

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        if func is torch.ops.aten.detach.default:
            w = args[0]
            return QuantWeight(w.codes.detach(), w.scale.detach(), w.bits)
        unwrap = lambda t: t.dequantize() if isinstance(t, QuantWeight) else t
        return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))


model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).eval()
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(16, 32)

with torch.no_grad():
    ref = compiled(x)
    for bits in [8, 4]:
        # post-training quantisation of the first layer, compared with the float model
        model[0].weight = nn.Parameter(QuantWeight.quantize(model[0].weight.detach(), bits), requires_grad=False)
        err = (compiled(x) - ref).abs().max().item()
        print(f"{bits}-bit first layer: max abs error {err:.4f}")
        model[0].weight = nn.Parameter(model[0].weight.dequantize(), requires_grad=False)
