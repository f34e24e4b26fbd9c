import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import EarlyStopping
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Regressor(L.LightningModule):
    def __init__(self, hidden=32):
        super().__init__()
        self.save_hyperparameters()
        net = nn.Sequential(nn.Linear(8, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.model = torch.compile(net, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.model(x).squeeze(-1), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.model(x).squeeze(-1), y)
        self.log("val_loss", loss, prog_bar=False)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


w = torch.randn(8)
xt = torch.randn(128, 8)
yt = xt @ w + 0.1 * torch.randn(128)
xv = torch.randn(64, 8)
yv = xv @ w
train = DataLoader(TensorDataset(xt, yt), batch_size=32)
val = DataLoader(TensorDataset(xv, yv), batch_size=32)

trainer = L.Trainer(
    max_epochs=3,
    accelerator="cpu",
    callbacks=[EarlyStopping(monitor="val_loss", patience=2, mode="min")],
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
trainer.fit(Regressor(), train, val)
print("best", trainer.callback_metrics.get("val_loss"))
