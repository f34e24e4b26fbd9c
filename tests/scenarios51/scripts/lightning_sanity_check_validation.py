import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
import lightning as L

torch.manual_seed(0)


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1))
        self.validation_step = torch.compile(self.validation_step, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        pred = self.net(x)
        loss = F.mse_loss(pred, y)
        if self.trainer.sanity_checking:
            return loss
        mae = (pred - y).abs().mean()
        self.log("val_loss", loss)
        self.log("val_mae", mae)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


def main():
    x = torch.randn(128, 10)
    y = x[:, :1] * 0.5 + 0.1 * torch.randn(128, 1)
    train = DataLoader(TensorDataset(x[:96], y[:96]), batch_size=16)
    val = DataLoader(TensorDataset(x[96:], y[96:]), batch_size=16)
    trainer = L.Trainer(
        max_epochs=2,
        accelerator="cpu",
        num_sanity_val_steps=2,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(Regressor(), train, val)
    print("done", trainer.callback_metrics)


if __name__ == "__main__":
    main()
