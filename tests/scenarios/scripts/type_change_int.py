import torch

torch.manual_seed(0)


def scale_logits(logits, temperature):
    return (logits / temperature).softmax(-1)


compiled = torch.compile(scale_logits, backend="aot_eager")
logits = torch.randn(4, 10)

# temperature read from a learned parameter ...
temp = torch.tensor(2.0)
print(compiled(logits, temp).max().item())
print(compiled(logits, temp * 1.5).max().item())

# ... later from the config, as a plain int
cfg_temperature = 2
print(compiled(logits, cfg_temperature).max().item())
print(compiled(logits, cfg_temperature).max().item())
