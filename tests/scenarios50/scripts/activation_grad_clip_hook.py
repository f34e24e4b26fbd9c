import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, d_in=20, d_hidden=32, n_cls=3):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_hidden)
        self.head = nn.Linear(d_hidden, n_cls)
        self.clip_value = None

    def forward(self, x):
        h1 = F.gelu(self.fc1(x))
        h2 = F.gelu(self.fc2(h1))
        if self.clip_value is not None:
            c = self.clip_value
            h1.register_hook(lambda g: g.clamp(-c, c))
            h2.register_hook(lambda g: g.clamp(-c, c))
        return self.head(h2)


model = MLP()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def train_step(x, y):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    return loss


data = [(torch.randn(32, 20), torch.randint(0, 3, (32,))) for _ in range(6)]
WARMUP_EPOCHS = 1

for epoch in range(3):
    if epoch == WARMUP_EPOCHS:
        model.clip_value = 0.05
        print("warm-up done: clipping activation gradients")
    total = 0.0
    for x, y in data:
        opt.zero_grad()
        loss = train_step(x, y)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total / len(data):.4f}")
