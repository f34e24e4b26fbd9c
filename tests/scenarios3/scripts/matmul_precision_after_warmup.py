import torch
from torch import nn

torch.manual_seed(0)


class Recommender(nn.Module):
    def __init__(self, users=50, items=80, dim=16):
        super().__init__()
        self.users = nn.Embedding(users, dim)
        self.items = nn.Embedding(items, dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, u, i):
        return self.mlp(torch.cat([self.users(u), self.items(i)], -1)).squeeze(-1)


model = Recommender()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def train_step():
    u, i = torch.randint(0, 50, (64,)), torch.randint(0, 80, (64,))
    loss = nn.functional.binary_cross_entropy_with_logits(compiled(u, i), torch.rand(64))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


print(f"sanity step loss {train_step():.4f}")
# the trainer setup code runs after the sanity check and asks for faster matmuls
torch.set_float32_matmul_precision("high")
for step in range(3):
    print(f"step {step} loss {train_step():.4f}")
