import torch
import torch.nn as nn

torch.manual_seed(0)

DIM, N_PROTOS = 16, 8


class ProtoScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(DIM, 32), nn.Tanh(), nn.Linear(32, DIM))
        self.protos = nn.Parameter(torch.randn(N_PROTOS, DIM))

    def forward(self, x):
        z = self.encoder(x)
        if hasattr(self, "cache"):
            z = 0.9 * z + 0.1 * self.cache
        return z @ self.protos.t()

    def remember(self, z):
        self.cache = z.detach().mean(0, keepdim=True)


model = ProtoScorer()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
g = torch.Generator().manual_seed(1)

for step in range(10):
    x = torch.randn(16, DIM, generator=g)
    y = torch.randint(0, N_PROTOS, (16,), generator=g)
    logits = compiled(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        model.remember(model.encoder(x))
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.4f}")
