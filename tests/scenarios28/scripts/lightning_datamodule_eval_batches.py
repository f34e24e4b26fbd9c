"""Tabular churn classifier trained with Lightning.

The data module loads the training rows in batches of 32; validation and
test use larger batches since no gradients are kept. The network inside the
LightningModule is compiled once in __init__.
"""

import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class ChurnData(L.LightningDataModule):
    def __init__(self, train_bs=32, eval_bs=100):
        super().__init__()
        self.train_bs = train_bs
        self.eval_bs = eval_bs

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(1)
        x = torch.randn(600, 14, generator=g)
        y = (x[:, 0] + 0.5 * x[:, 3] > 0).long()
        self.train_set = TensorDataset(x[:384], y[:384])
        self.val_set = TensorDataset(x[384:484], y[384:484])
        self.test_set = TensorDataset(x[484:], y[484:])

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.train_bs, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.eval_bs)

    def test_dataloader(self):
        return DataLoader(self.test_set, batch_size=self.eval_bs)


class ChurnModel(L.LightningModule):
    def __init__(self):
        super().__init__()
        net = nn.Sequential(nn.Linear(14, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 2))
        self.net = torch.compile(net, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        acc = (self.net(x).argmax(1) == y).float().mean()
        self.log("val_acc", acc, prog_bar=True)

    def test_step(self, batch, batch_idx):
        x, y = batch
        acc = (self.net(x).argmax(1) == y).float().mean()
        self.log("test_acc", acc)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


trainer = L.Trainer(
    max_epochs=2,
    accelerator="cpu",
    devices=1,
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
    num_sanity_val_steps=0,
)
dm = ChurnData()
model = ChurnModel()
trainer.fit(model, datamodule=dm)
trainer.test(model, datamodule=dm)
