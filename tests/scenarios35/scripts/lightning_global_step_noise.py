"""Denoising autoencoder in Lightning with a noise level that decays by step."""

import lightning as L
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class DenoisingAE(L.LightningModule):
    def __init__(self, dim=16, hidden=32, decay_steps=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.GELU())
        self.decoder = nn.Linear(hidden, dim)
        self.decay_steps = decay_steps

    def forward(self, x):
        # anneal the corruption: strong noise early, lighter later on
        level = 0.5 * max(0.1, 1.0 - self.global_step / self.decay_steps)
        noisy = x + level * torch.randn_like(x)
        return self.decoder(self.encoder(noisy))

    def training_step(self, batch, batch_idx):
        (x,) = batch
        recon = self(x)
        loss = nn.functional.mse_loss(recon, x)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(96, 16))
    loader = DataLoader(data, batch_size=16, shuffle=True)
    model = DenoisingAE()
    model.forward = torch.compile(model.forward, backend="aot_eager")
    trainer = L.Trainer(
        max_epochs=1,
        accelerator="cpu",
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)
    print("done, global step", trainer.global_step)


if __name__ == "__main__":
    main()
