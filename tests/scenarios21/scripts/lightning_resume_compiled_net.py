"""Tabular regression with Lightning, resumed after a preemption.

The cluster kills jobs after a time limit, so the first run trains a couple
of epochs and saves `last.ckpt`; the resubmitted job builds the module again
and continues from that checkpoint with `ckpt_path`. The MLP is compiled
when the module is built.
"""

import os
import shutil

import lightning as L
import torch
import torch.nn.functional as F
from lightning.pytorch.callbacks import ModelCheckpoint
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

CKPT_DIR = "checkpoints"


class LitRegressor(L.LightningModule):
    def __init__(self, n_features=16, hidden=64, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        net = nn.Sequential(nn.Linear(n_features, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))
        self.net = torch.compile(net, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x).squeeze(-1), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


def loaders(n_rows):
    # rows exported from the feature table; it keeps growing between submissions
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n_rows, 16, generator=g)
    y = x[:, :4].sum(1) + 0.1 * torch.randn(n_rows, generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True, generator=g)


def make_trainer(max_epochs):
    ckpt = ModelCheckpoint(dirpath=CKPT_DIR, save_last=True, save_top_k=0)
    return L.Trainer(max_epochs=max_epochs, accelerator="cpu", devices=1, callbacks=[ckpt],
                     logger=False, enable_progress_bar=False, enable_model_summary=False)


if __name__ == "__main__":
    shutil.rmtree(CKPT_DIR, ignore_errors=True)
    L.seed_everything(0)

    # first submission: killed after 2 epochs
    model = LitRegressor()
    make_trainer(2).fit(model, loaders(256))

    # resubmitted job: fresh process state for the module, resume from the checkpoint
    last = os.path.join(CKPT_DIR, "last.ckpt")
    model = LitRegressor()
    make_trainer(5).fit(model, loaders(300), ckpt_path=last)
    print("done at epoch", model.current_epoch)
