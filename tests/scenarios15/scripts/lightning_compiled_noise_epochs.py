"""Denoising autoencoder trained with Lightning, compiled as a whole.

Input noise is strongest in the first epoch and decays with the epoch
number; validation runs each epoch on clean inputs.
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
import lightning as L

torch.manual_seed(0)


class DenoisingAE(L.LightningModule):
    def __init__(self, dim=24, hidden=48, noise_start=0.5, noise_decay=0.6, lr=3e-3):
        super().__init__()
        self.save_hyperparameters()
        self.enc = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, 8))
        self.dec = nn.Sequential(nn.Linear(8, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x, noise_std=0.0):
        if noise_std > 0:
            x = x + noise_std * torch.randn_like(x)
        return self.dec(self.enc(x))

    def noise_level(self):
        # geometric decay per epoch
        return self.hparams.noise_start * self.hparams.noise_decay ** self.current_epoch

    def training_step(self, batch, batch_idx):
        (x,) = batch
        recon = self(x, self.noise_level())
        return nn.functional.mse_loss(recon, x)

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        return nn.functional.mse_loss(self(x), x)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


data = torch.randn(256, 24)
train_dl = DataLoader(TensorDataset(data[:192]), batch_size=32, shuffle=True)
val_dl = DataLoader(TensorDataset(data[192:]), batch_size=32)

model = DenoisingAE()
compiled = torch.compile(model, backend="aot_eager")

trainer = L.Trainer(
    max_epochs=3,
    accelerator="cpu",
    devices=1,
    gradient_clip_val=1.0,
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
    num_sanity_val_steps=0,
)
trainer.fit(compiled, train_dl, val_dl)

# quick look at the reconstruction error on the held-out rows
with torch.no_grad():
    val_x = data[192:]
    print("final val mse", nn.functional.mse_loss(model(val_x), val_x).item())
