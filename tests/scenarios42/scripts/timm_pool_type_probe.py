"""Linear-probe a small timm ResNet, comparing average and max global pooling."""
import timm
import torch
import torch.nn.functional as F

torch.manual_seed(0)

model = timm.create_model("resnet18", pretrained=False, num_classes=5)
model.reset_classifier(5, global_pool="avg")
for p in model.parameters():
    p.requires_grad_(False)
for p in model.get_classifier().parameters():
    p.requires_grad_(True)

compiled = torch.compile(model, backend="aot_eager")


def probe_round(pool, steps=3):
    model.reset_classifier(5, global_pool=pool)
    head = model.get_classifier()
    opt = torch.optim.SGD(head.parameters(), lr=0.05)
    model.train()
    for _ in range(steps):
        x = torch.randn(4, 3, 32, 32)
        y = torch.randint(0, 5, (4,))
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        x = torch.randn(8, 3, 32, 32)
        y = torch.randint(0, 5, (8,))
        acc = (compiled(x).argmax(-1) == y).float().mean().item()
    return loss.item(), acc


for rnd, pool in enumerate(["avg", "max", "avg", "max"]):
    loss, acc = probe_round(pool)
    print(f"round {rnd} pool={pool} loss={loss:.3f} acc={acc:.2f}")
