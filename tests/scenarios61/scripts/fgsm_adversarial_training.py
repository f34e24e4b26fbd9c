import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            torchvision.ops.Conv2dNormActivation(3, 16, kernel_size=3),
            torchvision.ops.Conv2dNormActivation(16, 32, kernel_size=3, stride=2),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def adv_train_step(images, labels, epsilon):
    images = images.clone().requires_grad_(True)
    loss = F.cross_entropy(model(images), labels)
    (grad,) = torch.autograd.grad(loss, images)
    adv = (images + epsilon * grad.sign()).clamp(0, 1).detach()
    clean_loss = F.cross_entropy(model(images.detach()), labels)
    adv_loss = F.cross_entropy(model(adv), labels)
    total = 0.5 * clean_loss + 0.5 * adv_loss
    total.backward()
    return total.detach()


step = torch.compile(adv_train_step, backend="aot_eager")

# attack strengths from the robustness schedule (in pixel units / 255)
strengths = {"weak": 2 / 255, "medium": 4 / 255, "strong": 8 / 255}
schedule = ["weak", "weak", "medium", "medium", "strong", "strong"]

for epoch, name in enumerate(schedule):
    eps = strengths[name]
    for _ in range(2):
        x = torch.rand(8, 3, 16, 16)
        y = torch.randint(0, 10, (8,))
        opt.zero_grad()
        loss = step(x, y, eps)
        opt.step()
    print(f"epoch {epoch} attack={name} eps={eps:.4f} loss={loss.item():.4f}")
