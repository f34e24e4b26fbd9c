import torch
import torchvision
import torchvision.transforms.v2.functional as TF

torch.manual_seed(0)

model = torchvision.models.squeezenet1_1(num_classes=5).eval()


def identity(img):
    return img


VIEWS = [identity, TF.hflip, TF.vflip]


@torch.compile(backend="aot_eager")
def score_view(images, view):
    x = view(images)
    x = TF.normalize(x, mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    return model(x).softmax(-1)


def predict_tta(images):
    probs = torch.stack([score_view(images, v) for v in VIEWS]).mean(0)
    return probs.argmax(-1)


def fake_loader(n_batches, batch=4, size=64):
    for _ in range(n_batches):
        yield torch.rand(batch, 3, size, size), torch.randint(0, 5, (batch,))


correct = total = 0
with torch.no_grad():
    for images, labels in fake_loader(4):
        pred = predict_tta(images)
        correct += (pred == labels).sum().item()
        total += labels.numel()
print("tta accuracy", correct / total)
