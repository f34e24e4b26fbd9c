import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import BackboneFinetuning
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Classifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.backbone(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        # only the head is trainable at first; the callback adds the backbone later
        params = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.Adam(params, lr=1e-3)


def main():
    x = torch.randn(96, 16)
    y = torch.randint(0, 4, (96,))
    loader = DataLoader(TensorDataset(x, y), batch_size=32)

    model = Classifier()
    model.forward = torch.compile(model.forward, backend="aot_eager")

    finetune = BackboneFinetuning(unfreeze_backbone_at_epoch=2, lambda_func=lambda epoch: 1.5)
    trainer = L.Trainer(
        max_epochs=4,
        accelerator="cpu",
        callbacks=[finetune],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)

    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(-1) == y).float().mean().item()
    print(f"train accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
