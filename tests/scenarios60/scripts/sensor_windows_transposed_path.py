import torch
import torch.nn as nn

torch.manual_seed(0)

CHANNELS, WINDOW = 6, 32


class ConvEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(CHANNELS, 16, 5, padding=2)
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        # x: (batch, channels, time)
        h = torch.relu(self.conv(x)).mean(-1)
        return self.head(h)


def from_npz(g, n):
    # stored channel-first already
    for _ in range(n):
        yield torch.randn(8, CHANNELS, WINDOW, generator=g), torch.randint(0, 2, (8,), generator=g)


def from_csv_stream(g, n):
    # CSV rows are (time, channel); swap to channel-first
    for _ in range(n):
        rows = torch.randn(8, WINDOW, CHANNELS, generator=g)
        yield rows.transpose(1, 2), torch.randint(0, 2, (8,), generator=g)


def from_recorder_dump(g, n):
    # recorder dumps are (channel, batch, time)
    for _ in range(n):
        dump = torch.randn(CHANNELS, 8, WINDOW, generator=g)
        yield dump.permute(1, 0, 2), torch.randint(0, 2, (8,), generator=g)


model = ConvEncoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
g = torch.Generator().manual_seed(1)

for epoch in range(3):
    total, seen = 0.0, 0
    for loader in (from_npz(g, 3), from_csv_stream(g, 2), from_recorder_dump(g, 2)):
        for x, y in loader:
            loss = nn.functional.cross_entropy(compiled(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            seen += 1
    print(f"epoch {epoch} loss {total / seen:.4f}")
