import torch
from torch import nn
from torch.nn.utils.parametrizations import spectral_norm

torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = spectral_norm(nn.Linear(16, 64))
        self.fc2 = spectral_norm(nn.Linear(64, 1))

    def forward(self, x):
        return self.fc2(nn.functional.leaky_relu(self.fc1(x), 0.2))


critic = Critic()
compiled = torch.compile(critic, backend="aot_eager")
opt = torch.optim.Adam(critic.parameters(), lr=1e-3)

for epoch in range(3):
    critic.train()
    for _ in range(2):
        real, fake = torch.randn(8, 16) + 1.0, torch.randn(8, 16)
        loss = compiled(fake).mean() - compiled(real).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
    critic.eval()
    with torch.no_grad():
        score = compiled(torch.randn(8, 16)).mean()
    print(f"epoch {epoch} loss {loss.item():.4f} eval {score.item():.4f}")
