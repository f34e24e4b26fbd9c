import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.ao.quantization import MovingAverageMinMaxObserver

torch.manual_seed(0)

QMIN, QMAX = 0, 255


class QATNet(nn.Module):
    def __init__(self, d_in=24, hidden=48, n_cls=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_cls)

    def forward(self, x, act_scale, act_zp):
        h = F.relu(self.fc1(x))
        # fake-quantise the hidden activations to uint8
        h = torch.fake_quantize_per_tensor_affine(h, act_scale, act_zp, QMIN, QMAX)
        return self.fc2(h)


model = QATNet()
observer = MovingAverageMinMaxObserver(averaging_constant=0.1, dtype=torch.quint8)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
cmodel = torch.compile(model, backend="aot_eager")

x_all = torch.randn(320, 24)
y_all = (x_all[:, :4] * 2.0 + 0.1 * torch.randn(320, 4)).argmax(1)

calibration_steps = 6
step = 0
scale, zp = 1.0, 0
for epoch in range(3):
    for i in range(0, 320, 40):
        xb, yb = x_all[i:i + 40], y_all[i:i + 40]
        if step < calibration_steps:
            with torch.no_grad():
                observer(F.relu(model.fc1(xb)))
            s, z = observer.calculate_qparams()
            scale, zp = float(s), int(z)
        logits = cmodel(xb, scale, zp)
        loss = F.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
    with torch.no_grad():
        acc = (cmodel(x_all, scale, zp).argmax(1) == y_all).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} acc {acc:.3f} scale {scale:.5f} zp {zp}")
