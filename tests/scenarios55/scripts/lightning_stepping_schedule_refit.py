import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class NoisyStudent(L.LightningModule):
    def __init__(self, max_noise=0.5):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))

    def training_step(self, batch, batch_idx):
        x, y = batch
        # spread the same noise budget over however many steps this fit runs
        total = self.trainer.estimated_stepping_batches
        noise = self.hparams.max_noise * min(1.0, 8 / total)
        x = x + noise * torch.randn_like(x)
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


def make_loader():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 10, generator=g)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    return DataLoader(TensorDataset(x, y), batch_size=16)


def fit(model, epochs):
    trainer = L.Trainer(
        max_epochs=epochs,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, make_loader())
    return trainer.callback_metrics.get("train_loss")


def main():
    model = NoisyStudent()
    model.training_step = torch.compile(model.training_step, backend="aot_eager")
    # short warm-up fit, then the real run
    print("warmup", fit(model, 1))
    print("main", fit(model, 3))


if __name__ == "__main__":
    main()
