import torch
import torch.nn as nn
from torch.func import vjp

torch.manual_seed(0)


class TinyCNN(nn.Module):
    def __init__(self, n_cls=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(16, n_cls)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


model = TinyCNN().eval()
for p in model.parameters():
    p.requires_grad_(False)


def explain(image, target):
    logits, pullback = vjp(model, image)
    cot = torch.zeros_like(logits)
    cot[:, target] = 1.0
    (grad,) = pullback(cot)
    sal = (grad * image).abs().sum(1)
    return logits.softmax(-1)[:, target], sal / sal.amax(dim=(1, 2), keepdim=True)


explain_c = torch.compile(explain, backend="aot_eager")

# requests: (image, class the user asks about)
requests = [3, 3, 7, 1, 3, 9, 0]
for i, target in enumerate(requests):
    img = torch.rand(1, 3, 16, 16)
    prob, sal = explain_c(img, target)
    print(i, target, round(prob.item(), 4), tuple(sal.shape))
