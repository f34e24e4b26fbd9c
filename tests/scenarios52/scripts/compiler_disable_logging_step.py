import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

HISTORY = []


@torch.compiler.disable
def log_metrics(loss, logits):
    conf = logits.softmax(-1).max(-1).values.mean().item()
    HISTORY.append((float(loss), conf))
    print(f"[log] entry {len(HISTORY)} loss {float(loss):.4f} conf {conf:.3f}")


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, 4)

    def forward(self, x):
        return self.head(self.body(x))


model = Classifier()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
LOG_EVERY = 4


@torch.compile(backend="aot_eager")
def train_step(x, y, should_log):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    if should_log:
        log_metrics(loss.detach(), logits.detach())
    loss.backward()
    return loss.detach()


data = torch.randn(320, 20)
targets = (data[:, :4].argmax(-1))
for step in range(10):
    i = (step * 32) % 320
    opt.zero_grad()
    loss = train_step(data[i:i + 32], targets[i:i + 32], step % LOG_EVERY == 0)
    opt.step()
print("logged", len(HISTORY), "times; last loss", round(loss.item(), 4))
