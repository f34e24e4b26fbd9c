import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def normalize_rows(x, weight):
    x = x * weight
    return x / x.norm(dim=-1, keepdim=True)


weight = torch.randn(16)
features = torch.randn(16, 16)
for step in range(4):
    # every other step the features arrive transposed (column-major view)
    x = features.t() if step % 2 == 1 else features
    out = normalize_rows(x, weight)
    print(f"step {step} contiguous {x.is_contiguous()} out {out.sum().item():.4f}")
