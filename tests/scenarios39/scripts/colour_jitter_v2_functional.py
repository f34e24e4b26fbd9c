"""A GPU-style batch augmentation: colour jitter with torchvision's
transforms.v2.functional ops applied to a whole batch, with factors drawn per
batch, compiled together with the classifier's training step."""

import random

import torch
from torch import nn
import torchvision.transforms.v2.functional as TF


def augment(images, brightness, contrast, saturation, hue):
    images = TF.adjust_brightness(images, brightness)
    images = TF.adjust_contrast(images, contrast)
    images = TF.adjust_saturation(images, saturation)
    images = TF.adjust_hue(images, hue)
    return images


def main():
    torch.manual_seed(0)
    random.seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5)
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(images, labels, b, c, s, h):
        images = augment(images, b, c, s, h)
        loss = nn.functional.cross_entropy(model(images), labels)
        loss.backward()
        return loss

    step = torch.compile(train_step, backend="aot_eager")
    data = torch.rand(48, 3, 24, 24)
    labels = torch.randint(0, 5, (48,))
    for epoch in range(2):
        for i in range(0, 48, 8):
            b = round(random.uniform(0.7, 1.3), 2)
            c = round(random.uniform(0.7, 1.3), 2)
            s = round(random.uniform(0.7, 1.3), 2)
            h = round(random.uniform(-0.1, 0.1), 2)
            opt.zero_grad()
            loss = step(data[i:i + 8], labels[i:i + 8], b, c, s, h)
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
