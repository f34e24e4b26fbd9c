import torch
import torch.nn as nn
import torch.nn.functional as F
from timm.layers import DropBlock2d
from timm.models.resnet import BasicBlock, ResNet

torch.manual_seed(0)

EPOCHS = 5
STEPS_PER_EPOCH = 3
MAX_DROP = 0.1


def build_model():
    # small ResNet with DropBlock in the last two stages
    return ResNet(
        block=BasicBlock,
        layers=[1, 1, 1, 1],
        num_classes=10,
        in_chans=3,
        stem_width=16,
        drop_block_rate=MAX_DROP,
    )


def set_drop_block(model, prob):
    n = 0
    for m in model.modules():
        if isinstance(m, DropBlock2d):
            m.drop_prob = prob
            n += 1
    return n


def main():
    model = build_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    cmodel = torch.compile(model, backend="aot_eager")

    images = torch.randn(EPOCHS * STEPS_PER_EPOCH, 8, 3, 96, 96)
    labels = torch.randint(0, 10, (EPOCHS * STEPS_PER_EPOCH, 8))

    step = 0
    for epoch in range(EPOCHS):
        # linear DropBlock warm-up over the run
        prob = MAX_DROP * epoch / (EPOCHS - 1)
        n = set_drop_block(model, prob)
        model.train()
        total = 0.0
        for _ in range(STEPS_PER_EPOCH):
            logits = cmodel(images[step])
            loss = F.cross_entropy(logits, labels[step])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.item()
            step += 1
        print(f"epoch {epoch} drop_block={prob:.3f} ({n} layers) loss={total / STEPS_PER_EPOCH:.4f}")


if __name__ == "__main__":
    main()
