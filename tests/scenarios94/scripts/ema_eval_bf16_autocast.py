"""Train a tiny timm MobileNetV3 with a plain model EMA (timm ModelEmaV2),
evaluating the EMA weights each epoch; from epoch 2 validation runs under
CPU bfloat16 autocast to speed it up. The EMA model's forward is compiled.
"""
import torch
import torch.nn.functional as F
import timm
from timm.utils import ModelEmaV2

torch.manual_seed(0)

model = timm.create_model(
    "mobilenetv3_small_050", pretrained=False, num_classes=10,
)
ema = ModelEmaV2(model, decay=0.9)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
ema_forward = torch.compile(ema.module, backend="aot_eager")

images = torch.randn(48, 3, 32, 32)
labels = torch.randint(0, 10, (48,))
val_images = torch.randn(32, 3, 32, 32)
val_labels = torch.randint(0, 10, (32,))

for epoch in range(4):
    model.train()
    for i in range(0, 48, 16):
        loss = F.cross_entropy(model(images[i:i + 16]), labels[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
    use_bf16 = epoch >= 2
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16):
        logits = ema_forward(val_images)
    acc = (logits.float().argmax(-1) == val_labels).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} ema acc {acc:.3f} bf16={use_bf16}")
