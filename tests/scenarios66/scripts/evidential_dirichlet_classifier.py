"""Evidential deep learning classifier: the network outputs Dirichlet
evidence and the loss adds a KL term towards the uniform Dirichlet whose
weight is annealed over the first epochs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NUM_CLASSES = 4


class EvidentialLoss(nn.Module):
    def __init__(self, num_classes, anneal_epochs=5):
        super().__init__()
        self.num_classes = num_classes
        self.anneal_epochs = anneal_epochs
        self.kl_weight = 0.0

    def kl_to_uniform(self, alpha):
        k = alpha.shape[1]
        s = alpha.sum(1, keepdim=True)
        t1 = torch.lgamma(s).squeeze(1) - torch.lgamma(torch.tensor(float(k))) - torch.lgamma(alpha).sum(1)
        t2 = ((alpha - 1) * (torch.digamma(alpha) - torch.digamma(s))).sum(1)
        return t1 + t2

    def forward(self, evidence, target):
        alpha = evidence + 1
        y = F.one_hot(target, self.num_classes).float()
        s = alpha.sum(1, keepdim=True)
        mse = ((y - alpha / s) ** 2 + alpha * (s - alpha) / (s * s * (s + 1))).sum(1)
        alpha_tilde = y + (1 - y) * alpha
        return (mse + self.kl_weight * self.kl_to_uniform(alpha_tilde)).mean()

    def set_epoch(self, epoch):
        self.kl_weight = min(1.0, epoch / self.anneal_epochs)


net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, NUM_CLASSES), nn.Softplus())
criterion = EvidentialLoss(NUM_CLASSES)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)

centers = torch.randn(NUM_CLASSES, 16) * 2
labels = torch.randint(0, NUM_CLASSES, (192,))
data = centers[labels] + torch.randn(192, 16)


@torch.compile(backend="aot_eager")
def train_step(x, y):
    loss = criterion(net(x), y)
    loss.backward()
    return loss


for epoch in range(7):
    criterion.set_epoch(epoch)
    perm = torch.randperm(192)
    for i in range(0, 192, 64):
        idx = perm[i:i + 64]
        opt.zero_grad()
        loss = train_step(data[idx], labels[idx])
        opt.step()
    with torch.no_grad():
        alpha = net(data) + 1
        unc = (NUM_CLASSES / alpha.sum(1)).mean()
    print(f"epoch {epoch} kl_weight {criterion.kl_weight:.2f} loss {loss.item():.4f} uncertainty {unc.item():.3f}")
