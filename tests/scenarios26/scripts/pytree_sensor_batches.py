# Keyword-spotting model fed by several microphone datasets. Batches travel as
# a small container class registered with pytree so they can be moved to the
# device and split with tree_map like any nested structure.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils._pytree as pytree

torch.manual_seed(0)


class AudioBatch:
    def __init__(self, wave, labels, sample_rate):
        self.wave = wave
        self.labels = labels
        self.sample_rate = sample_rate


pytree.register_pytree_node(
    AudioBatch,
    lambda b: ((b.wave, b.labels), b.sample_rate),
    lambda children, sr: AudioBatch(*children, sr),
)


class Spotter(nn.Module):
    def __init__(self, n_words=6):
        super().__init__()
        self.conv = nn.Conv1d(1, 16, 9, stride=4)
        self.fc = nn.Linear(16, n_words)

    def forward(self, batch):
        # 20 ms frames regardless of the recording's rate
        hop = batch.sample_rate // 50
        frames = batch.wave[:, : (batch.wave.shape[1] // hop) * hop]
        h = F.relu(self.conv(frames.unsqueeze(1)))
        logits = self.fc(h.mean(-1))
        return F.cross_entropy(logits, batch.labels)


model = Spotter()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step = torch.compile(model, backend="aot_eager")

# (name, sample rate) of each source; clips are one second long
sources = [("studio", 16000), ("phone", 8000), ("studio", 16000), ("podcast", 22050)]

for epoch in range(2):
    for name, sr in sources:
        batch = AudioBatch(torch.randn(8, 16000), torch.randint(0, 6, (8,)), sr)
        batch = pytree.tree_map(lambda t: t.contiguous(), batch)
        loss = step(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, name, round(loss.item(), 4))
