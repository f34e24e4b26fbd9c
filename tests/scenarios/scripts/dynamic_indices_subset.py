import torch

torch.manual_seed(0)


def nonzero_mean(x):
    # mean over the last dim, ignoring padding zeros
    mask = (x != 0).float()
    return (x * mask).sum(-1) / mask.sum(-1).clamp(min=1)


compiled = torch.compile(nonzero_mean, backend="aot_eager")

# first caller: variable batch size
x = torch.randn(8, 20)
torch._dynamo.mark_dynamic(x, 0)
print(compiled(x).shape)

# second caller: variable sequence length (same shapes this time)
y = torch.randn(8, 20)
torch._dynamo.mark_dynamic(y, 1)
print(compiled(y).shape)
