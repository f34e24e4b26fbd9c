"""Text-bag classifier trained with accelerate: a GradientAccumulationPlugin,
gradient clipping, accelerator.save_state / load_state to roll back to the
best epoch, and an evaluation pass on the unwrapped model after each epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import GradientAccumulationPlugin
from torch.utils.data import DataLoader, TensorDataset


class BagClassifier(nn.Module):
    def __init__(self, vocab=200, dim=32, n_cls=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(dim, n_cls)

    def forward(self, ids):
        h = self.emb(ids)
        if self.training:
            h = self.drop(h) + 0.01 * torch.randn_like(h)
        return self.out(h)


def main():
    torch.manual_seed(0)
    plugin = GradientAccumulationPlugin(num_steps=2, sync_with_dataloader=False)
    accelerator = Accelerator(cpu=True, gradient_accumulation_plugin=plugin)
    ids = torch.randint(0, 200, (96, 16))
    labels = (ids[:, 0] % 3)
    train = DataLoader(TensorDataset(ids[:64], labels[:64]), batch_size=16, shuffle=True)
    val = DataLoader(TensorDataset(ids[64:], labels[64:]), batch_size=32)

    model = torch.compile(BagClassifier(), backend="aot_eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    model, opt, train, val = accelerator.prepare(model, opt, train, val)

    best = -1.0
    for epoch in range(3):
        model.train()
        for x, y in train:
            with accelerator.accumulate(model):
                loss = F.cross_entropy(model(x), y)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
                opt.zero_grad()
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val:
                correct += (model(x).argmax(-1) == y).sum().item()
        acc = correct / 32
        accelerator.print(f"epoch {epoch}: val acc {acc:.3f}")
        if acc > best:
            best = acc
            accelerator.save_state("state/best")
        else:
            accelerator.load_state("state/best")
            accelerator.print("rolled back to best state")


if __name__ == "__main__":
    main()
