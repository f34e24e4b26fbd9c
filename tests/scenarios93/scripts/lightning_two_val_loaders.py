"""Sequence classifier trained with Lightning, validated on two held-out sets
(short in-domain clips and longer out-of-domain clips) every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.loggers import CSVLogger
from torch.utils.data import DataLoader, TensorDataset


class ConvClassifier(nn.Module):
    def __init__(self, n_feat=8, hidden=32, n_cls=4):
        super().__init__()
        self.conv = nn.Conv1d(n_feat, hidden, 3, padding=1)
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(hidden, n_cls)

    def forward(self, x):
        h = F.gelu(self.conv(x.transpose(1, 2)))
        h = self.drop(h.mean(-1))
        return self.head(h)


class LitClassifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.compile(ConvClassifier(), backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx, dataloader_idx=0):
        x, y = batch
        logits = self.net(x)
        acc = (logits.argmax(-1) == y).float().mean()
        name = ["in_domain", "out_domain"][dataloader_idx]
        self.log(f"{name}_acc", acc, add_dataloader_idx=False)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-3)


def make_set(n, length):
    x = torch.randn(n, length, 8)
    y = torch.randint(0, 4, (n,))
    return TensorDataset(x, y)


def main():
    torch.manual_seed(0)
    train = DataLoader(make_set(64, 20), batch_size=16, shuffle=True)
    val_short = DataLoader(make_set(32, 20), batch_size=16)
    val_long = DataLoader(make_set(32, 50), batch_size=16)
    trainer = L.Trainer(
        max_epochs=2,
        accelerator="cpu",
        devices=1,
        logger=CSVLogger("logs", name="clips"),
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    trainer.fit(LitClassifier(), train, val_dataloaders=[val_short, val_long])
    print({k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})


if __name__ == "__main__":
    main()
