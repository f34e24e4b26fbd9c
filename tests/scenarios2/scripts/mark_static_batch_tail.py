import torch
from torch import nn

torch.manual_seed(0)


class FrameClassifier(nn.Module):
    """Audio frames (batch, time, features) -> one label per clip."""

    def __init__(self, feats=20, hidden=32, classes=6):
        super().__init__()
        self.proj = nn.Linear(feats, hidden)
        self.conv = nn.Conv1d(hidden, hidden, kernel_size=3, padding=1)
        self.head = nn.Linear(hidden, classes)

    def forward(self, frames):
        h = torch.relu(self.proj(frames)).transpose(1, 2)
        h = torch.relu(self.conv(h)).mean(dim=2)
        return self.head(h)


def batches(n_clips, batch_size, lengths):
    for i, start in enumerate(range(0, n_clips, batch_size)):
        size = min(batch_size, n_clips - start)
        yield torch.randn(size, lengths[i % len(lengths)], 20), torch.randint(0, 6, (size,))


model = FrameClassifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    for frames, labels in batches(37, 8, lengths=[50, 64, 80]):
        # the batch size is fixed by the loader; only clip length varies
        torch._dynamo.mark_static(frames, 0)
        loss = nn.functional.cross_entropy(compiled(frames), labels)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    correct = 0
    for frames, labels in batches(20, 8, lengths=[64]):
        torch._dynamo.mark_static(frames, 0)
        correct += (compiled(frames).argmax(-1) == labels).sum().item()
print(f"val acc {correct / 20:.2f}")
