import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import BaseFinetuning
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.backbone(x))


class FineTuner(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = Classifier()
        self.compiled = torch.compile(self.net, backend="aot_eager")

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.compiled(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        params = [p for p in self.net.parameters() if p.requires_grad]
        return torch.optim.Adam(params, lr=1e-3)


class UnfreezeBackbone(BaseFinetuning):
    def __init__(self, unfreeze_at_epoch=2):
        super().__init__()
        self.unfreeze_at_epoch = unfreeze_at_epoch

    def freeze_before_training(self, pl_module):
        self.freeze(pl_module.net.backbone)

    def finetune_function(self, pl_module, current_epoch, optimizer):
        if current_epoch == self.unfreeze_at_epoch:
            self.unfreeze_and_add_param_group(
                modules=pl_module.net.backbone, optimizer=optimizer, lr=1e-4
            )


x = torch.randn(96, 16)
y = torch.randint(0, 4, (96,))
loader = DataLoader(TensorDataset(x, y), batch_size=16)

trainer = L.Trainer(
    max_epochs=4,
    accelerator="cpu",
    callbacks=[UnfreezeBackbone(unfreeze_at_epoch=2)],
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
trainer.fit(FineTuner(), loader)
print("done")
