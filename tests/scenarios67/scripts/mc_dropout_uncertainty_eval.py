import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import MulticlassAUROC

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, d_in=24, hidden=64, n_classes=5, p=0.2):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p),
        )
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


W = torch.randn(24, 5)
X = torch.randn(512, 24)
Y = (X @ W).argmax(-1)

model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
cmodel = torch.compile(model, backend="aot_eager")

for epoch in range(2):
    model.train()
    for i in range(0, 512, 64):
        loss = F.cross_entropy(cmodel(X[i:i + 64]), Y[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")


def enable_mc_dropout(m):
    m.eval()
    for mod in m.modules():
        if isinstance(mod, nn.Dropout):
            mod.train()


X_test = torch.randn(128, 24)
Y_test = (X_test @ W).argmax(-1)
auroc = MulticlassAUROC(num_classes=5)

# deterministic prediction
model.eval()
with torch.no_grad():
    p_det = cmodel(X_test).softmax(-1)
print("det AUROC", auroc(p_det, Y_test).item())

# MC dropout: average several stochastic passes
enable_mc_dropout(model)
with torch.no_grad():
    samples = torch.stack([cmodel(X_test).softmax(-1) for _ in range(8)])
p_mc = samples.mean(0)
entropy = -(p_mc * p_mc.clamp_min(1e-8).log()).sum(-1)
auroc.reset()
print("MC AUROC", auroc(p_mc, Y_test).item(), "mean entropy", entropy.mean().item())
