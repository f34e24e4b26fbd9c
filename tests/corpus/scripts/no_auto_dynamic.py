import torch
from torch import nn

torch._dynamo.config.automatic_dynamic_shapes = False

torch.manual_seed(0)

model = nn.Sequential(nn.Embedding(100, 32), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 100))
compiled = torch.compile(model, backend="aot_eager")

for step in range(11):
    seq_len = 8 + 4 * step
    tokens = torch.randint(0, 100, (2, seq_len))
    logits = compiled(tokens)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())
    loss.backward()
    print(f"step {step} seq_len {seq_len} loss {loss.item():.4f}")
