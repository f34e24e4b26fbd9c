"""none_arg, before: an optional mask is None on some calls and a tensor on
others: one compile for each."""
import torch

torch.manual_seed(0)


def masked_mean(x, mask=None):
    if mask is None:
        return x.mean(dim=1)
    return (x * mask).sum(dim=1) / mask.sum(dim=1)


compiled = torch.compile(masked_mean, backend="aot_eager")
for step in range(4):
    x = torch.randn(4, 6)
    mask = (torch.rand(4, 6) > 0.2).float() if step % 2 else None
    y = compiled(x, mask)
