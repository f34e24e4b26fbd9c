import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Embedding(50, 32), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 50))
compiled = torch.compile(model, backend="aot_eager")

# sequences are bucketed to lengths in [8, 64]: declare that range for dim 1
lengths = [16, 24, 40, 64, 32, 8]
batch_sizes = [4, 4, 4, 4, 4, 3]  # the last batch of the epoch is short
for seq_len, batch in zip(lengths, batch_sizes):
    tokens = torch.randint(0, 50, (batch, seq_len))
    torch._dynamo.mark_dynamic(tokens, 1, min=8, max=64)
    logits = compiled(tokens)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())
    loss.backward()
    print(f"batch {batch} seq {seq_len} loss {loss.item():.4f}")
