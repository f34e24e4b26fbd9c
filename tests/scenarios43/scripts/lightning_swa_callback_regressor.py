import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import StochasticWeightAveraging
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(8, 32),
            nn.BatchNorm1d(32),
            nn.ReLU(),
            nn.Linear(32, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05, momentum=0.9)


def main():
    x = torch.randn(128, 8)
    w = torch.randn(8)
    y = x @ w + 0.1 * torch.randn(128)
    loader = DataLoader(TensorDataset(x, y), batch_size=32)

    model = Regressor()
    model.forward = torch.compile(model.forward, backend="aot_eager")

    swa = StochasticWeightAveraging(swa_lrs=0.01, swa_epoch_start=2, annealing_epochs=1)
    trainer = L.Trainer(
        max_epochs=4,
        accelerator="cpu",
        callbacks=[swa],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)

    model.eval()
    with torch.no_grad():
        mse = F.mse_loss(model(x), y).item()
    print(f"final mse {mse:.4f}")


if __name__ == "__main__":
    main()
