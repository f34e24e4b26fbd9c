"""Federated simulation where one dataset is split across clients with
torch.utils.data.random_split by fractions, so clients hold different
numbers of samples.  Each client iterates its shard with a DataLoader
(batch_size=16, last partial batch kept) and trains a copy of the global
model compiled once; the server averages weighted by shard size.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)

X = torch.randn(150, 10)
Y = (X.sum(1) > 0).long()
full = TensorDataset(X, Y)
shards = random_split(full, [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))

model = nn.Sequential(nn.Linear(10, 24), nn.GELU(), nn.LayerNorm(24), nn.Linear(24, 2))
compiled = torch.compile(model, backend="aot_eager")


def run_client(shard, global_state):
    model.load_state_dict(global_state)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loader = DataLoader(shard, batch_size=16, shuffle=True)
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(compiled(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * xb.shape[0]
    state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    return state, total / len(shard)


global_state = {k: v.clone() for k, v in model.state_dict().items()}
for rnd in range(2):
    results = [run_client(s, global_state) for s in shards]
    sizes = torch.tensor([len(s) for s in shards], dtype=torch.float32)
    w = sizes / sizes.sum()
    global_state = {k: sum(wi * st[k] for wi, (st, _) in zip(w, results)) for k in global_state}
    print(f"round {rnd}: client losses {[round(l, 4) for _, l in results]} sizes {sizes.tolist()}")
