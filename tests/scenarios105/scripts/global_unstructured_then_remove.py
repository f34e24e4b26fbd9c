"""Global magnitude pruning of an MLP classifier, then making it permanent.

After one dense epoch, 60% of all Linear weights (ranked globally) are pruned
with torch.nn.utils.prune.global_unstructured; the sparse model is fine-tuned
and evaluated, and finally the masks are folded in with prune.remove before the
export evaluation. Evaluation goes through one compiled function.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(64, 128), nn.ReLU(),
    nn.Linear(128, 128), nn.ReLU(),
    nn.Linear(128, 5),
)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

x_train = torch.randn(512, 64)
y_train = torch.randint(0, 5, (512,))
x_val = torch.randn(128, 64)
y_val = torch.randint(0, 5, (128,))


@torch.compile(backend="aot_eager")
def evaluate(net, x, y):
    logits = net(x)
    return F.cross_entropy(logits, y), (logits.argmax(-1) == y).float().mean()


def train_epoch():
    model.train()
    for i in range(0, 512, 128):
        loss = F.cross_entropy(model(x_train[i:i + 128]), y_train[i:i + 128])
        opt.zero_grad()
        loss.backward()
        opt.step()


def report(tag):
    model.eval()
    with torch.no_grad():
        loss, acc = evaluate(model, x_val, y_val)
    zeros = sum(int((m.weight == 0).sum()) for m in model if isinstance(m, nn.Linear))
    total = sum(m.weight.numel() for m in model if isinstance(m, nn.Linear))
    print(f"{tag}: val loss {loss.item():.4f} acc {acc.item():.3f} sparsity {zeros / total:.2f}")


train_epoch()
report("dense")

to_prune = [(m, "weight") for m in model if isinstance(m, nn.Linear)]
prune.global_unstructured(to_prune, pruning_method=prune.L1Unstructured, amount=0.6)
for epoch in range(2):
    train_epoch()
    report(f"sparse epoch {epoch}")

for module, name in to_prune:
    prune.remove(module, name)
report("after prune.remove")
