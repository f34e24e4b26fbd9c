import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Regressor(L.LightningModule):
    def __init__(self, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x).squeeze(-1), y)
        # keep the effective step size the same whatever the accumulation
        return loss * self.trainer.accumulate_grad_batches

    def on_train_batch_end(self, outputs, batch, batch_idx):
        self.last_loss = outputs["loss"].item()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)


x = torch.randn(64, 16)
y = x[:, :4].sum(-1) + 0.1 * torch.randn(64)
loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=False)

model = Regressor()
model.training_step = torch.compile(model.training_step, backend="aot_eager")

# stage 1: small effective batch; stage 2: fine-tune with a larger one
for stage, (epochs, accum) in enumerate([(2, 1), (2, 4)]):
    trainer = L.Trainer(
        max_epochs=epochs, accumulate_grad_batches=accum, accelerator="cpu",
        logger=False, enable_checkpointing=False, enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)
    print(f"stage {stage} accum {accum} loss {model.last_loss:.4f}")
