import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt):
    label_smoothing = 0.0

    @torch.compile(backend="aot_eager")
    def forward_loss(x, y):
        logits = model(x)
        return F.cross_entropy(logits, y, label_smoothing=label_smoothing)

    def step(x, y):
        loss = forward_loss(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss

    def set_smoothing(value):
        nonlocal label_smoothing
        label_smoothing = value

    return step, set_smoothing


model = Classifier()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
train_step, set_smoothing = make_train_step(model, opt)

for epoch in range(4):
    # ramp label smoothing over the first epochs
    set_smoothing(min(0.1, 0.05 * epoch))
    for _ in range(3):
        x = torch.randn(24, 10)
        y = torch.randint(0, 3, (24,))
        loss = train_step(x, y)
    print(f"epoch {epoch}: loss={loss.item():.4f}")
