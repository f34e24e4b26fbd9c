import torch
from torch import nn

torch.manual_seed(0)


class Scorer(nn.Module):
    def __init__(self, n_items=50, dim=16):
        super().__init__()
        self.items = nn.Embedding(n_items, dim)
        self.users = nn.Linear(8, dim)

    def forward(self, user_feats, item_ids):
        u = self.users(user_feats)
        pooled = torch.zeros(u.shape[0], u.shape[1]).index_add(0, item_ids % u.shape[0], self.items(item_ids))
        return (u * pooled).sum(-1)


model = Scorer()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.001)


def train_step():
    feats, ids = torch.randn(16, 8), torch.randint(0, 50, (64,))
    loss = compiled(feats, ids).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    return loss.item()


for epoch in range(3):
    print(f"epoch {epoch} loss {train_step():.4f}")
    if epoch == 1:
        # reproducibility audit: rerun one step with deterministic kernels, then go back to fast mode
        torch.use_deterministic_algorithms(True)
        print(f"audit step loss {train_step():.4f}")
        torch.use_deterministic_algorithms(False)
