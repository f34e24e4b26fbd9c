"""A tiny GAN on 2-D points trained with Lightning's manual optimization.

The generator and discriminator each have their own optimizer; the user
toggles them by hand in training_step and compiles both networks.
"""

import warnings

import lightning as L
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

warnings.filterwarnings("ignore")
torch.manual_seed(0)


class PointGAN(L.LightningModule):
    def __init__(self, z_dim=8):
        super().__init__()
        self.automatic_optimization = False
        self.z_dim = z_dim
        gen = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, 2))
        disc = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Dropout(0.2), nn.Linear(32, 1))
        self.gen = torch.compile(gen, backend="aot_eager")
        self.disc = torch.compile(disc, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        (real,) = batch
        opt_g, opt_d = self.optimizers()
        bce = nn.functional.binary_cross_entropy_with_logits

        z = torch.randn(real.shape[0], self.z_dim)
        self.toggle_optimizer(opt_d)
        fake = self.gen(z).detach()
        d_loss = bce(self.disc(real), torch.ones(real.shape[0], 1)) + bce(
            self.disc(fake), torch.zeros(real.shape[0], 1)
        )
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        self.untoggle_optimizer(opt_d)

        self.toggle_optimizer(opt_g)
        g_loss = bce(self.disc(self.gen(z)), torch.ones(real.shape[0], 1))
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()
        self.untoggle_optimizer(opt_g)

    def validation_step(self, batch, batch_idx):
        (real,) = batch
        score = self.disc(real).sigmoid().mean()
        self.log("val_real_score", score)

    def configure_optimizers(self):
        return (
            torch.optim.Adam(self.gen.parameters(), lr=2e-4),
            torch.optim.Adam(self.disc.parameters(), lr=2e-4),
        )


points = torch.randn(128, 2) * 0.5 + torch.tensor([1.0, -1.0])
train = DataLoader(TensorDataset(points), batch_size=32)
val = DataLoader(TensorDataset(points[:64]), batch_size=32)

trainer = L.Trainer(
    max_epochs=2,
    accelerator="cpu",
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
    num_sanity_val_steps=0,
)
trainer.fit(PointGAN(), train, val)
