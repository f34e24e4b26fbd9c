"""A weight-shared ("universal") transformer block applied a configurable
number of times. The curriculum deepens the recurrence as training goes on.
"""

import torch
from torch import nn

torch.manual_seed(0)


class UniversalEncoder(nn.Module):
    def __init__(self, d=32, n_iter=2):
        super().__init__()
        self.inp = nn.Linear(8, d)
        self.block = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.0, batch_first=True)
        self.n_iter = n_iter
        self.head = nn.Linear(d, 1)

    def forward(self, x):
        h = self.inp(x)
        for _ in range(self.n_iter):
            h = self.block(h)
        return self.head(h.mean(1)).squeeze(-1)


model = UniversalEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
fwd = torch.compile(model, backend="aot_eager")

x = torch.randn(8, 10, 8)
y = x.sum(dim=(1, 2))

# recurrence depth per stage of the curriculum
curriculum = [2, 2, 3, 4]
for stage, depth in enumerate(curriculum):
    model.n_iter = depth
    for step in range(2):
        loss = nn.functional.mse_loss(fwd(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage} depth {depth} loss {loss.item():.4f}")
