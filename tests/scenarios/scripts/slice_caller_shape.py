import torch
from torch import nn

torch.manual_seed(0)
torch._dynamo.config.automatic_dynamic_shapes = False  # we want static shapes


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h = self.embed(tokens)
        return self.out(h + self.mlp(h))


model = TinyLM()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step, seq_len in enumerate([17, 21, 13, 25]):
    tokens = torch.randint(0, 64, (4, seq_len))
    logits = compiled(tokens[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 64), tokens[:, 1:].reshape(-1))
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} seq {seq_len} loss {loss.item():.4f}")
