import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def weighted_losses(outputs, targets, weights):
    total = 0.0
    for name, w in weights.items():
        if name == "cls":
            total = total + w * F.cross_entropy(outputs["cls"], targets["cls"])
        elif name == "recon":
            total = total + w * F.mse_loss(outputs["recon"], targets["recon"])
        elif name == "rank":
            total = total + w * F.soft_margin_loss(outputs["rank"], targets["rank"])
    return total


class MultiTask(L.LightningModule):
    def __init__(self, aux_start=6):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.cls = nn.Linear(32, 3)
        self.dec = nn.Linear(32, 16)
        self.rank = nn.Linear(32, 1)
        self.aux_start = aux_start
        self.loss_weights = {"cls": 1.0}
        self.loss_fn = torch.compile(weighted_losses, backend="aot_eager")

    def on_train_batch_start(self, batch, batch_idx):
        # bring in auxiliary objectives after a warmup
        if self.global_step == self.aux_start:
            self.loss_weights["recon"] = 0.5
        if self.global_step == 2 * self.aux_start:
            self.loss_weights["rank"] = 0.1

    def training_step(self, batch, batch_idx):
        x, y = batch
        h = self.enc(x)
        outputs = {"cls": self.cls(h), "recon": self.dec(h), "rank": self.rank(h).squeeze(-1)}
        targets = {"cls": y, "recon": x, "rank": (y == 0).float() * 2 - 1}
        loss = self.loss_fn(outputs, targets, self.loss_weights)
        self.log("loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


X = torch.randn(160, 16)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 0).long()
dl = DataLoader(TensorDataset(X, Y), batch_size=32)

trainer = L.Trainer(
    max_epochs=4, accelerator="cpu", logger=False, enable_checkpointing=False,
    enable_progress_bar=False, enable_model_summary=False,
)
trainer.fit(MultiTask(), dl)
print("done")
