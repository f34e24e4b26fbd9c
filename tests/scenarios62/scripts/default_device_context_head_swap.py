import torch
import torch.nn as nn

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(24, 48), nn.GELU(), nn.Linear(48, 48), nn.GELU())

    def forward(self, x):
        return self.net(x)


device = torch.device("cpu")
backbone = Backbone().to(device)
head = nn.Linear(48, 5).to(device)
cbackbone = torch.compile(backbone, backend="aot_eager")
params = list(backbone.parameters()) + list(head.parameters())
opt = torch.optim.AdamW(params, lr=1e-3)


def train_epoch(n_batches=3):
    for _ in range(n_batches):
        x = torch.randn(32, 24, device=device)
        y = torch.randint(0, head.out_features, (32,), device=device)
        loss = nn.functional.cross_entropy(head(cbackbone(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


print("task A", train_epoch())

# new task: build the new head directly on the training device and
# continue training inside the same block
with torch.device(device):
    head = nn.Linear(48, 8)
    opt = torch.optim.AdamW(list(backbone.parameters()) + list(head.parameters()), lr=1e-3)
    print("task B", train_epoch())

print("task B (cont.)", train_epoch())
