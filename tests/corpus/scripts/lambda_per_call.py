import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def apply_activation(x, act):
    return act(x * 2.0) + 1.0


x = torch.randn(8, 16)
for step in range(10):
    slope = 0.01
    out = apply_activation(x, lambda t: torch.nn.functional.leaky_relu(t, slope))
    print(f"step {step} out {out.sum().item():.4f}")
