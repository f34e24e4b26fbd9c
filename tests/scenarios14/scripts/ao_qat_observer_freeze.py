"""Quantisation-aware training of a small conv net with torch.ao.quantization.

Standard recipe: train a couple of epochs with observers collecting ranges,
then freeze the observers (and BN) so the quantisation parameters stop
moving, and keep fine-tuning with fake-quant on.
"""

import torch
import torch.ao.quantization as tq
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.relu2 = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = self.relu1(self.conv1(x))
        x = self.relu2(self.conv2(x))
        x = self.pool(x).flatten(1)
        x = self.fc(x)
        return self.dequant(x)


model = SmallNet()
model.qconfig = tq.get_default_qat_qconfig("x86")
model.train()
tq.prepare_qat(model, inplace=True)

opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
compiled = torch.compile(model, backend="aot_eager")

x = torch.randn(16, 1, 16, 16)
y = torch.randint(0, 10, (16,))

for epoch in range(4):
    if epoch == 2:
        # ranges have settled: stop observing, keep simulating int8
        model.apply(tq.disable_observer)
    for it in range(2):
        out = compiled(x)
        loss = F.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

model.eval()
int8_model = tq.convert(model)
print("converted:", type(int8_model.conv1).__name__)
