# negative control: replacing forward on a user-defined module compiles a new frame, no recompile
import torch
from torch import nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.body(x))

    def forward_features(self, x):
        return self.body(x)


model = Classifier()
compiled = torch.compile(model, backend="aot_eager")

with torch.no_grad():
    print("logits", tuple(compiled(torch.randn(4, 16)).shape))
    # reuse the compiled model as a feature extractor
    model.forward = model.forward_features
    print("features", tuple(compiled(torch.randn(4, 16)).shape))
    print("features", tuple(compiled(torch.randn(4, 16)).shape))
