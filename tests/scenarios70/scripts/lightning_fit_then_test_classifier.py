import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class TabularClassifier(L.LightningModule):
    def __init__(self, d_in=12, hidden=32, n_classes=4):
        super().__init__()
        self.save_hyperparameters()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.head(self.body(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def test_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("test_acc", acc)
        return acc

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


def loader(n, shuffle):
    x = torch.randn(n, 12)
    y = (x[:, :4].argmax(-1)).long()
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=shuffle, drop_last=True)


def main():
    model = TabularClassifier()
    model.forward = torch.compile(model.forward, backend="aot_eager")
    trainer = L.Trainer(
        max_epochs=2,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, train_dataloaders=loader(64, True))
    results = trainer.test(model, dataloaders=loader(32, False), verbose=False)
    print(results)


if __name__ == "__main__":
    main()
