"""MLP on synthetic sensor features trained with Lightning's ModelPruning
callback: L1 unstructured pruning of the linear layers is applied at the end
of selected epochs, with the amount growing over training."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import ModelPruning
from torch.utils.data import DataLoader, TensorDataset


class SensorMLP(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(24, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 5)
        self.step_fn = torch.compile(self._logits, backend="aot_eager")

    def _logits(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.step_fn(x), y)
        self.log("loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=2e-3)


def prune_amount(epoch):
    return {1: 0.2, 3: 0.4}.get(epoch, 0.0)


def main():
    torch.manual_seed(0)
    x = torch.randn(128, 24)
    y = torch.randint(0, 5, (128,))
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = SensorMLP()
    pruning = ModelPruning(
        "l1_unstructured",
        parameters_to_prune=[(model.fc1, "weight"), (model.fc2, "weight")],
        amount=prune_amount,
        use_global_unstructured=False,
        verbose=1,
    )
    trainer = L.Trainer(
        max_epochs=5,
        accelerator="cpu",
        devices=1,
        logger=False,
        callbacks=[pruning],
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)
    sparsity = (model.fc1.weight == 0).float().mean().item()
    print(f"fc1 sparsity {sparsity:.2f}")


if __name__ == "__main__":
    main()
