"""Tabular regression with Lightning: accumulate more batches later in
training, clip gradients by value, then write predictions for the whole
hold-out file with a bigger predict batch.
"""

import lightning as L
import torch
from lightning.pytorch.callbacks import GradientAccumulationScheduler
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class HousePriceNet(nn.Module):
    def __init__(self, n_features=12):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, 64), nn.SiLU(), nn.Linear(64, 32), nn.SiLU())
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)


class PriceModel(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.compile(HousePriceNet(), backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.smooth_l1_loss(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", nn.functional.mse_loss(self.net(x), y))

    def predict_step(self, batch, batch_idx):
        x, _ = batch
        return self.net(x)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def split(n):
    x = torch.randn(n, 12)
    y = x[:, :3].sum(-1) + 0.1 * torch.randn(n)
    return TensorDataset(x, y)


train_dl = DataLoader(split(512), batch_size=32, shuffle=True, drop_last=True)
val_dl = DataLoader(split(128), batch_size=64)
holdout_dl = DataLoader(split(300), batch_size=100)

trainer = L.Trainer(
    max_epochs=3,
    accelerator="cpu",
    callbacks=[GradientAccumulationScheduler(scheduling={0: 1, 2: 4})],
    gradient_clip_val=0.5,
    gradient_clip_algorithm="value",
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
model = PriceModel()
trainer.fit(model, train_dl, val_dl)
print("val_loss", float(trainer.callback_metrics["val_loss"]))
preds = torch.cat(trainer.predict(model, holdout_dl))
print("predictions", tuple(preds.shape))
