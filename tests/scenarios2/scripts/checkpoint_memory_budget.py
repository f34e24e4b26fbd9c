import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)

TOKEN_BUDGET = 2048  # above this many tokens per batch, recompute activations in backward


class Layer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class LM(nn.Module):
    def __init__(self, vocab=100, dim=32, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Layer(dim) for _ in range(depth))
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h = self.embed(tokens)
        save_memory = tokens.numel() > TOKEN_BUDGET
        for layer in self.layers:
            h = checkpoint(layer, h, use_reentrant=False) if save_memory else layer(h)
        return self.head(h)


model = LM()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

# length-grouped batches of 16 sequences
for step, seq in enumerate([32, 48, 128, 160, 40]):
    tokens = torch.randint(0, 100, (16, seq + 1))
    logits = compiled(tokens[:, :-1])
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} seq {seq} loss {loss.item():.4f}")
