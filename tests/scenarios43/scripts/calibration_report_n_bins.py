import torch
import torch.nn as nn
from torchmetrics.functional.classification import binary_calibration_error

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(512, 10)
y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()


def calibration_report(probs, target, n_bins, norm):
    return binary_calibration_error(probs, target, n_bins=n_bins, norm=norm)


report = torch.compile(calibration_report, backend="aot_eager")

# each report section asks for its own binning
REPORTS = [
    {"section": "summary", "n_bins": 10, "norm": "l1"},
    {"section": "fine", "n_bins": 20, "norm": "l1"},
    {"section": "coarse", "n_bins": 5, "norm": "l1"},
]

for epoch in range(3):
    for i in range(0, 512, 128):
        logits = model(x[i:i + 128]).squeeze(-1)
        loss = nn.functional.binary_cross_entropy_with_logits(logits, y[i:i + 128].float())
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        probs = torch.sigmoid(model(x).squeeze(-1))
    for r in REPORTS:
        ece = report(probs, y, r["n_bins"], r["norm"])
        print(epoch, r["section"], f"ece {ece.item():.4f}")
