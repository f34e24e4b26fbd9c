"""Multi-step demand forecaster: LSTMCell encoder-decoder trained with Lightning,
scheduled sampling (teacher forcing ratio decays by epoch), MAPE validation."""
import torch
import torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.regression import MeanAbsolutePercentageError

torch.manual_seed(0)
IN_LEN, OUT_LEN, HID = 16, 4, 32


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.LSTMCell(1, HID)
        self.dec = nn.LSTMCell(1, HID)
        self.out = nn.Linear(HID, 1)

    def forward(self, x, y, teacher_forcing):
        b = x.shape[0]
        h = x.new_zeros(b, HID)
        c = x.new_zeros(b, HID)
        for t in range(IN_LEN):
            h, c = self.enc(x[:, t:t + 1], (h, c))
        prev = x[:, -1:]
        preds = []
        for t in range(OUT_LEN):
            h, c = self.dec(prev, (h, c))
            p = self.out(h)
            preds.append(p)
            if y is not None and teacher_forcing > 0:
                use_truth = torch.rand(b, 1) < teacher_forcing
                prev = torch.where(use_truth, y[:, t:t + 1], p)
            else:
                prev = p
        return torch.cat(preds, dim=1)


class Forecaster(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.compile(Seq2Seq(), backend="aot_eager")
        self.mape = MeanAbsolutePercentageError()

    def training_step(self, batch, _):
        x, y = batch
        tf = max(0.0, 1.0 - 0.5 * self.current_epoch)
        pred = self.net(x, y, tf)
        loss = nn.functional.mse_loss(pred, y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, _):
        x, y = batch
        pred = self.net(x, None, 0.0)
        self.mape.update(pred, y)

    def on_validation_epoch_end(self):
        self.log("val_mape", self.mape.compute())
        self.mape.reset()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-3)


def make_series(n):
    base = torch.linspace(0, 12, IN_LEN + OUT_LEN)
    phase = torch.rand(n, 1) * 6.28
    s = 5 + torch.sin(base + phase) + 0.1 * torch.randn(n, IN_LEN + OUT_LEN)
    return s[:, :IN_LEN], s[:, IN_LEN:]


xtr, ytr = make_series(96)
xva, yva = make_series(32)
train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=32, shuffle=True)
val_dl = DataLoader(TensorDataset(xva, yva), batch_size=32)

trainer = L.Trainer(max_epochs=3, accelerator="cpu", logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False, num_sanity_val_steps=0)
trainer.fit(Forecaster(), train_dl, val_dl)
print("val_mape", trainer.callback_metrics["val_mape"].item())
