import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(0)


class DictDataset(Dataset):
    def __init__(self, n=48):
        self.x = torch.randn(n, 20)
        self.y = torch.randint(0, 3, (n,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"features": self.x[i], "label": self.y[i]}


model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def train_step(batch):
    if isinstance(batch, dict):
        x, y = batch["features"], batch["label"]
    else:
        x, y = batch
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    return loss.detach()


compiled_step = torch.compile(train_step, backend="aot_eager")

# in-house data comes as dicts, the public set as plain tensors
in_house = DataLoader(DictDataset(), batch_size=16)
public = DataLoader(TensorDataset(torch.randn(48, 20), torch.randint(0, 3, (48,))), batch_size=16)

for epoch in range(2):
    for a, b in zip(in_house, public):
        for batch in (a, b):
            opt.zero_grad()
            loss = compiled_step(batch)
            opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
