"""Anomaly detection on a multichannel sensor stream: a Conv1d autoencoder trained
on normal windows, a threshold calibrated on held-out normal data, then a labelled
test stream scored in chunks (bottleneck embeddings kept for the report)."""
import numpy as np
import torch
import torch.nn as nn
from numpy.lib.stride_tricks import sliding_window_view
from torchmetrics.classification import BinaryAUROC, BinaryF1Score

torch.manual_seed(0)
rng = np.random.default_rng(0)
CH, WIN = 3, 32


def stream(n, anomalies=0):
    t = np.arange(n)
    x = np.stack([np.sin(t / (5 + c)) for c in range(CH)]) + 0.1 * rng.normal(size=(CH, n))
    labels = np.zeros(n, dtype=np.int64)
    for s in rng.integers(0, n - 20, size=anomalies):
        x[:, s:s + 12] += rng.normal(0, 1.5, size=(CH, 12)); labels[s:s + 12] = 1
    return x.astype(np.float32), labels


def windows(x, labels, stride):
    w = sliding_window_view(x, WIN, axis=1)[:, ::stride].transpose(1, 0, 2)
    lw = sliding_window_view(labels, WIN)[::stride].max(axis=1)
    return torch.from_numpy(np.ascontiguousarray(w)), torch.from_numpy(lw)


class ConvAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(CH, 16, 5, stride=2, padding=2), nn.ReLU(),
                                     nn.Conv1d(16, 8, 5, stride=2, padding=2), nn.ReLU())
        self.decoder = nn.Sequential(nn.ConvTranspose1d(8, 16, 4, stride=2, padding=1), nn.ReLU(),
                                     nn.ConvTranspose1d(16, CH, 4, stride=2, padding=1))

    def forward(self, x):
        return self.decoder(self.encoder(x))


model = ConvAE()
ae = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

train_w, _ = windows(*stream(1200), stride=4)
calib_w, _ = windows(*stream(400), stride=4)
test_w, test_y = windows(*stream(600, anomalies=6), stride=4)

for epoch in range(3):
    for batch in train_w[torch.randperm(len(train_w))].split(64):
        if len(batch) < 64:
            continue
        loss = (ae(batch) - batch).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    print(f"epoch {epoch} recon {loss.item():.4f}")

model.eval()
with torch.no_grad():
    calib_err = (ae(calib_w) - calib_w).pow(2).mean(dim=(1, 2))
threshold = calib_err.quantile(0.99).item()

embeddings = []
auroc, f1 = BinaryAUROC(), BinaryF1Score()
with torch.no_grad():
    for batch, y in zip(test_w.split(64), test_y.split(64)):
        err = (ae(batch) - batch).pow(2).mean(dim=(1, 2))
        auroc.update(err, y); f1.update((err > threshold).long(), y)
        embeddings.append(model.encoder(batch).mean(-1))  # bottleneck features for the incident report
print("auroc", auroc.compute().item(), "f1", f1.compute().item(), "emb", torch.cat(embeddings).shape)
