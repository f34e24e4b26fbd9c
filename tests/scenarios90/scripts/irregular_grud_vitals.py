"""GRU-D style classifier for irregularly sampled ICU vitals: per-variable decay of
the last observation using the time since it was seen; batches padded to the
longest patient stay in each batch; held-out patients scored at the end."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
N_VARS, HID = 5, 32


def simulate_patient():
    n_obs = int(rng.integers(8, 40))
    times = np.cumsum(rng.exponential(0.5, size=n_obs))          # hours, float64
    values = rng.normal(size=(n_obs, N_VARS))
    mask = (rng.random((n_obs, N_VARS)) < 0.6).astype(np.float64)
    label = int(values[:, 0].mean() > 0)
    return times, values * mask, mask, label


def collate(patients):
    T = max(len(p[0]) for p in patients)
    B = len(patients)
    vals = np.zeros((B, T, N_VARS)); msk = np.zeros((B, T, N_VARS)); ts = np.zeros((B, T))
    for i, (t, v, m, _) in enumerate(patients):
        vals[i, :len(t)] = v; msk[i, :len(t)] = m; ts[i, :len(t)] = t
    y = torch.tensor([p[3] for p in patients], dtype=torch.float32)
    return torch.from_numpy(vals).float(), torch.from_numpy(msk).float(), torch.from_numpy(ts), y


class GRUD(nn.Module):
    def __init__(self):
        super().__init__()
        self.decay = nn.Linear(N_VARS, N_VARS)
        self.gru = nn.GRU(3 * N_VARS, HID, batch_first=True)
        self.head = nn.Linear(HID, 1)
        self.register_buffer("x_mean", torch.zeros(N_VARS))

    def forward(self, x, m, t):
        dt = torch.diff(t, dim=1, prepend=t[:, :1]).unsqueeze(-1).expand_as(x)
        # time since each variable was last seen (approximated by cumulative gap reset at observations)
        delta = torch.cumsum(dt, dim=1) * (1 - m) + dt * m
        gamma = torch.exp(-F.relu(self.decay(delta.to(x.dtype))))
        x_hat = m * x + (1 - m) * gamma * self.x_mean
        h, _ = self.gru(torch.cat([x_hat, m, delta.to(x.dtype)], dim=-1))
        return self.head(h[:, -1]).squeeze(-1)


model = GRUD()
step = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

train_patients = [simulate_patient() for _ in range(64)]
test_patients = [simulate_patient() for _ in range(16)]

for epoch in range(2):
    order = rng.permutation(len(train_patients))
    for i in range(0, len(order), 16):
        x, m, t, y = collate([train_patients[j] for j in order[i:i + 16]])
        loss = F.binary_cross_entropy_with_logits(step(x, m, t.float()), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    x, m, t, y = collate(test_patients)
    probs = torch.sigmoid(step(x, m, t))
    print("test acc", ((probs > 0.5).float() == y).float().mean().item())
