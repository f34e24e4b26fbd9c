import torch
from torch import nn

torch.manual_seed(0)

# fine-tune a pretrained stack: start with only the head trainable, unfreeze
# one more layer from the top every epoch (ULMFiT-style gradual unfreezing)
model = nn.Sequential(
    nn.Linear(16, 32), nn.Tanh(),
    nn.Linear(32, 32), nn.Tanh(),
    nn.Linear(32, 4),
)
layers = [model[0], model[2], model[4]]
for layer in layers[:-1]:
    layer.requires_grad_(False)

opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


for epoch in range(3):
    if epoch > 0:
        layers[-1 - epoch].requires_grad_(True)
    for _ in range(2):
        x = torch.randn(8, 16)
        y = torch.randint(0, 4, (8,))
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt_step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
