"""Denoising regressor trained with Lightning, input noise annealed by a callback.

The module adds Gaussian noise to its inputs while training; a small
callback lowers `noise_std` at the start of every epoch so the model sees
cleaner inputs as training goes on. The model is compiled and handed to
the Trainer as usual.
"""

import warnings

import lightning as L
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

warnings.filterwarnings("ignore")
torch.manual_seed(0)


class DenoisingRegressor(L.LightningModule):
    def __init__(self, noise_std=0.5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 1))
        self.noise_std = noise_std

    def forward(self, x):
        if self.training:
            x = x + self.noise_std * torch.randn_like(x)
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.mse_loss(self(x), y)

    def on_train_batch_end(self, outputs, batch, batch_idx):
        self.log("train_loss", outputs["loss"])

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3)


class NoiseAnnealing(L.Callback):
    """Halve the input noise every epoch, down to a floor."""

    def __init__(self, factor=0.5, floor=0.05):
        self.factor = factor
        self.floor = floor

    def on_train_epoch_start(self, trainer, pl_module):
        if trainer.current_epoch > 0:
            pl_module.noise_std = max(self.floor, pl_module.noise_std * self.factor)
        print(f"epoch {trainer.current_epoch} noise_std {pl_module.noise_std:.3f}")


x = torch.randn(256, 16)
y = x[:, :4].sum(dim=1, keepdim=True) + 0.1 * torch.randn(256, 1)
loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

model = DenoisingRegressor()
compiled = torch.compile(model, backend="aot_eager")
trainer = L.Trainer(
    max_epochs=4,
    accelerator="cpu",
    devices=1,
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
    callbacks=[NoiseAnnealing()],
)
trainer.fit(compiled, loader)
print("final noise_std", model.noise_std)
