import torch
from torch import nn

torch._dynamo.config.recompile_limit = 4

torch.manual_seed(0)


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(64, 32)
        self.rnn_like = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64))

    def forward(self, chars):
        return self.rnn_like(self.embed(chars))


model = CharLM()
compiled = torch.compile(model, backend="aot_eager", dynamic=False)

# curriculum: the context grows by 8 characters every step
for step in range(7):
    seq_len = 16 + 8 * step
    chars = torch.randint(0, 64, (4, seq_len))
    logits = compiled(chars)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), chars.flatten())
    loss.backward()
    print(f"step {step} context {seq_len} loss {loss.item():.4f}")
