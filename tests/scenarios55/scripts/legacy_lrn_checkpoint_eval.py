import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# old AlexNet-style checkpoints, each trained with its own LRN window
CHECKPOINTS = [
    {"name": "caffe_2014", "lrn_size": 5, "alpha": 1e-4, "beta": 0.75},
    {"name": "cuda_convnet", "lrn_size": 3, "alpha": 1e-4, "beta": 0.75},
    {"name": "caffe_2015", "lrn_size": 5, "alpha": 1e-4, "beta": 0.75},
]


class TinyAlexNet(nn.Module):
    def __init__(self, lrn_size, alpha, beta, num_classes=10):
        super().__init__()
        self.lrn_size = lrn_size
        self.alpha = alpha
        self.beta = beta
        self.conv1 = nn.Conv2d(3, 8, 5, stride=2, padding=2)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 4 * 4, num_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.local_response_norm(x, size=self.lrn_size, alpha=self.alpha, beta=self.beta)
        x = F.max_pool2d(x, 2)
        x = F.relu(self.conv2(x))
        x = F.local_response_norm(x, size=self.lrn_size, alpha=self.alpha, beta=self.beta)
        x = F.adaptive_avg_pool2d(x, 4)
        return self.fc(x.flatten(1))


def fake_state_dict(model, seed):
    g = torch.Generator().manual_seed(seed)
    return {k: torch.randn(v.shape, generator=g) * 0.1 for k, v in model.state_dict().items()}


def evaluate(model, loader):
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(-1)
            correct += (pred == y).sum().item()
            total += y.numel()
    return correct / total


def main():
    loader = [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))) for _ in range(3)]
    for i, ckpt in enumerate(CHECKPOINTS):
        model = TinyAlexNet(ckpt["lrn_size"], ckpt["alpha"], ckpt["beta"])
        model.load_state_dict(fake_state_dict(model, i))
        model.eval()
        compiled = torch.compile(model, backend="aot_eager")
        print(ckpt["name"], f"acc={evaluate(compiled, loader):.3f}")


if __name__ == "__main__":
    main()
