import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(16, 32), nn.ReLU(),
    nn.Linear(32, 32), nn.ReLU(),
    nn.Linear(32, 4),
)
compiled = torch.compile(model, backend="aot_eager")


def forward_features(x):
    # everything but the classifier layer
    for layer in model[:-1]:
        x = layer(x)
    return x


with torch.no_grad():
    print("logits", tuple(compiled(torch.randn(4, 16)).shape))
    # reuse the compiled model as a feature extractor
    model.forward = forward_features
    print("features", tuple(compiled(torch.randn(4, 16)).shape))
    print("features", tuple(compiled(torch.randn(4, 16)).shape))
