import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


model = Regressor()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)


def train_step(x, y, aux, aux_weight):
    pred = model(x)
    main = F.smooth_l1_loss(pred, y)
    reg = aux.pow(2).mean()
    loss = main + aux_weight * reg
    loss.backward()
    return main.detach()


step = torch.compile(train_step, backend="aot_eager")

# aux weight schedule: off, on at full strength, then annealed
schedule = {0: 0, 1: 1, 2: 1, 3: 0.5, 4: 0.25, 5: 0.125}
for epoch in range(6):
    w = schedule[epoch]
    for it in range(2):
        x = torch.randn(32, 10)
        y = x[:, :3].sum(-1) + 0.1 * torch.randn(32)
        aux = model.body[0].weight
        opt.zero_grad()
        main = step(x, y, aux, w)
        opt.step()
    print(epoch, w, round(main.item(), 4))
