import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

SEQ_LEN = 64


class SignalClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 16, 5, padding=2)
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        h = F.relu(self.conv(x))
        return self.fc(h.mean(-1))


model = SignalClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def augment_and_loss(x, y, shift):
    # circular time shift so the classifier does not rely on phase
    x = torch.roll(x, shifts=shift, dims=-1)
    x = x + 0.05 * torch.randn_like(x)
    return F.cross_entropy(model(x), y)


step_fn = torch.compile(augment_and_loss, backend="aot_eager")

step = 0
for epoch in range(2):
    for _ in range(5):
        x = torch.randn(8, 2, SEQ_LEN)
        y = torch.randint(0, 3, (8,))
        shift = (step * 7) % SEQ_LEN
        loss = step_fn(x, y, shift)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
    print(f"epoch {epoch} loss {loss.item():.4f}")
