import torch
import torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Tagger(L.LightningModule):
    def __init__(self, dim=12, classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.GELU(), nn.Linear(32, classes))
        self.infer = torch.compile(self._infer, backend="aot_eager")

    def _infer(self, x, dataloader_idx):
        logits = self.net(x)
        if dataloader_idx == 0:
            return logits.softmax(-1)
        # second source is scored in calibrated form
        return (logits / 1.5).log_softmax(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.cross_entropy(self.net(x), y)
        return loss

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        x = batch[0]
        return self.infer(x, dataloader_idx)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


def loader(n, shift):
    x = torch.randn(n, 12) + shift
    y = torch.randint(0, 5, (n,))
    return TensorDataset(x, y)


model = Tagger()
trainer = L.Trainer(
    max_epochs=1,
    accelerator="cpu",
    devices=1,
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
trainer.fit(model, DataLoader(loader(64, 0.0), batch_size=16))

news = DataLoader(TensorDataset(torch.randn(48, 12)), batch_size=16)
forum = DataLoader(TensorDataset(torch.randn(48, 12) * 2.0), batch_size=16)
preds = trainer.predict(model, dataloaders=[news, forum])
for i, chunk in enumerate(preds):
    print("source", i, torch.cat(chunk).shape)
