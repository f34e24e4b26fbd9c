import torch
from torch import nn

torch.manual_seed(0)


class PositionalEncoding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.register_buffer("pos_cache", torch.empty(0, dim), persistent=False)

    def forward(self, x):
        seq_len = x.shape[1]
        if self.pos_cache.shape[0] < seq_len:
            pos = torch.arange(seq_len, dtype=torch.float32).unsqueeze(1)
            freqs = torch.arange(self.dim, dtype=torch.float32).unsqueeze(0)
            self.pos_cache = torch.sin(pos / (10000 ** (freqs / self.dim)))
        return x + self.pos_cache[:seq_len]


model = nn.Sequential(PositionalEncoding(32), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 8))
compiled = torch.compile(model, backend="aot_eager")

for step in range(4):
    x = torch.randn(4, 16, 32)
    loss = compiled(x).pow(2).mean()
    loss.backward()
    print(f"step {step} loss {loss.item():.4f} cache rows {model[0].pos_cache.shape[0]}")
