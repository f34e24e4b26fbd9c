"""Image-patch regressor: Lightning's learning-rate finder (Tuner.lr_find)
picks the learning rate, then the model is fitted with bf16 mixed precision
on CPU and a LearningRateMonitor."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.loggers import CSVLogger
from lightning.pytorch.tuner import Tuner
from torch.utils.data import DataLoader, TensorDataset


class PatchRegressor(L.LightningModule):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.lr = lr
        self.body = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
            nn.Linear(128, 1),
        )
        self.compiled = torch.compile(self.body, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.compiled(x).squeeze(-1).float(), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=self.lr, momentum=0.9)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
        return {"optimizer": opt, "lr_scheduler": sched}


def main():
    torch.manual_seed(0)
    x = torch.randn(192, 1, 12, 12)
    y = x.mean(dim=(1, 2, 3)) * 3.0
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = PatchRegressor()
    finder_trainer = L.Trainer(accelerator="cpu", devices=1, logger=False,
                               enable_checkpointing=False, enable_progress_bar=False,
                               enable_model_summary=False, max_epochs=3)
    finder = Tuner(finder_trainer).lr_find(model, train_dataloaders=loader,
                                           min_lr=1e-4, max_lr=1.0, num_training=30)
    print(f"suggested lr {finder.suggestion()}")
    trainer = L.Trainer(accelerator="cpu", devices=1, precision="bf16-mixed",
                        logger=CSVLogger("logs", name="patches"), max_epochs=3,
                        callbacks=[L.pytorch.callbacks.LearningRateMonitor("epoch")],
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, loader)
    print(f"final loss {trainer.callback_metrics['train_loss'].item():.4f}")


if __name__ == "__main__":
    main()
