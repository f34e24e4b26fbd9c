"""Lightning regression model with an lr-coupled smoothness penalty.

The network is compiled in configure_model (Lightning's recommended hook for
wrapping the model).  Following the paper we copy, the smoothness penalty is
scaled by the current learning rate, which training_step reads off the
scheduler.
"""

import warnings

import lightning as L
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

warnings.filterwarnings("ignore")
torch.manual_seed(0)


def penalised_loss(pred, target, lr):
    mse = nn.functional.mse_loss(pred, target)
    smooth = (pred[:, 1:] - pred[:, :-1]).pow(2).mean()
    return mse + (lr * 100.0) * smooth


class CurveFitter(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = None
        self.loss_fn = None

    def configure_model(self):
        if self.net is not None:
            return
        self.net = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 32))
        self.net = torch.compile(self.net, backend="aot_eager")
        self.loss_fn = torch.compile(penalised_loss, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        lr = self.lr_schedulers().get_last_lr()[0]
        loss = self.loss_fn(self.net(x), y, lr)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        opt = torch.optim.Adam(self.parameters(), lr=1e-3)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "epoch"}}


x = torch.randn(96, 8)
y = torch.sin(x @ torch.randn(8, 32))
loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

trainer = L.Trainer(
    max_epochs=6,
    accelerator="cpu",
    devices=1,
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
model = CurveFitter()
trainer.fit(model, loader)
print("final lr", trainer.lr_scheduler_configs[0].scheduler.get_last_lr()[0])
