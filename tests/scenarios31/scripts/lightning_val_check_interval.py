"""Image-ish classifier trained with Lightning, validated four times per epoch.

The network is compiled once in the LightningModule's constructor and used
for both training and validation steps. Validation uses bigger batches
since no gradients are kept.
"""

import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Classifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 10)
        )
        self.compiled = torch.compile(self.net, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.compiled(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        acc = (self.compiled(x).argmax(-1) == y).float().mean()
        self.log("val_acc", acc)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05, momentum=0.9)


train = TensorDataset(torch.randn(512, 8, 8), torch.randint(0, 10, (512,)))
val = TensorDataset(torch.randn(256, 8, 8), torch.randint(0, 10, (256,)))

trainer = L.Trainer(
    max_epochs=1,
    val_check_interval=0.25,
    limit_val_batches=2,
    num_sanity_val_steps=0,
    accelerator="cpu",
    devices=1,
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
trainer.fit(
    Classifier(),
    DataLoader(train, batch_size=32, shuffle=True),
    DataLoader(val, batch_size=128),
)
print("val_acc", float(trainer.callback_metrics["val_acc"]))
