import torch
import torch.nn as nn

torch.manual_seed(0)

FEATURES, CLASSES = 12, 4

model = nn.Sequential(nn.Linear(FEATURES, 32), nn.ReLU(), nn.Linear(32, CLASSES))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator().manual_seed(1)
X = torch.randn(256, FEATURES, generator=g)
Y = (X[:, :CLASSES].argmax(1))
for epoch in range(20):
    loss = nn.functional.cross_entropy(model(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()


@torch.compile(backend="aot_eager")
def predict(x):
    if x.ndim == 1:
        x = x.unsqueeze(0)
        probs = model(x).softmax(-1)
        return probs[0]
    return model(x).softmax(-1)


# a small service: batch jobs come in as matrices, the web form sends one row
requests = [
    ("batch", torch.randn(16, FEATURES, generator=g)),
    ("batch", torch.randn(16, FEATURES, generator=g)),
    ("single", torch.randn(FEATURES, generator=g)),
    ("batch", torch.randn(16, FEATURES, generator=g)),
    ("single", torch.randn(FEATURES, generator=g)),
    ("single", torch.randn(FEATURES, generator=g)),
]

with torch.no_grad():
    for kind, x in requests:
        p = predict(x)
        if kind == "single":
            print("single ->", int(p.argmax()), f"{p.max().item():.3f}")
        else:
            print("batch ->", p.argmax(-1)[:6].tolist())
