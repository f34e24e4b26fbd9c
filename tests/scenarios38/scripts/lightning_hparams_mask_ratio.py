"""Masked-feature autoencoder trained with Lightning; a callback raises the mask ratio."""
import torch
import torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class MaskedAE(L.LightningModule):
    def __init__(self, dim=16, hidden=32, mask_ratio=0.1, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.enc = nn.Sequential(nn.Linear(dim, hidden), nn.GELU())
        self.dec = nn.Linear(hidden, dim)

    def forward(self, x):
        keep = (torch.rand_like(x) >= self.hparams.mask_ratio).to(x.dtype)
        return self.dec(self.enc(x * keep))

    def training_step(self, batch, batch_idx):
        (x,) = batch
        recon = self(x)
        loss = nn.functional.mse_loss(recon, x)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class MaskRatioCurriculum(L.Callback):
    def __init__(self, ratios):
        self.ratios = ratios

    def on_train_epoch_start(self, trainer, pl_module):
        pl_module.hparams.mask_ratio = self.ratios[trainer.current_epoch]


data = TensorDataset(torch.randn(64, 16))
loader = DataLoader(data, batch_size=16)

model = MaskedAE()
model.forward = torch.compile(model.forward, backend="aot_eager")

trainer = L.Trainer(
    max_epochs=3,
    accelerator="cpu",
    callbacks=[MaskRatioCurriculum([0.1, 0.25, 0.4])],
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
trainer.fit(model, loader)
print("final mask ratio", model.hparams.mask_ratio)
