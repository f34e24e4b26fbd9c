import torch

torch.manual_seed(0)


def rms_norm(x, weight, eps=1e-6):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


norm = torch.compile(rms_norm, backend="aot_eager")
weight = torch.ones(32)

pooled = torch.randn(4, 32)  # (batch, dim)
print("pooled", norm(pooled, weight).std().item())
print("pooled", norm(torch.randn(4, 32), weight).std().item())

tokens = torch.randn(4, 10, 32)  # (batch, seq, dim)
print("tokens", norm(tokens, weight).std().item())
print("tokens", norm(torch.randn(4, 10, 32), weight).std().item())
