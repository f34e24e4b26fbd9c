"""Two-stage fine-tuning of a small text classifier with Lightning.

Stage one trains only the classifier head on top of a frozen encoder (an
older LightningModule we reuse); stage two unfreezes the encoder and keeps
going from where stage one stopped.
"""

import lightning as L
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class Encoder(L.LightningModule):
    def __init__(self, vocab=500, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Dropout(0.1))

    def forward(self, ids):
        return self.mix(self.emb(ids)).mean(1)


class Classifier(L.LightningModule):
    def __init__(self, encoder, num_classes=3):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(64, num_classes)

    def forward(self, ids):
        return self.head(self.encoder(ids))

    def training_step(self, batch, batch_idx):
        ids, y = batch
        loss = nn.functional.cross_entropy(self(ids), y)
        return loss

    def configure_optimizers(self):
        params = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.AdamW(params, lr=1e-3)


ids = torch.randint(0, 500, (128, 20))
labels = torch.randint(0, 3, (128,))
loader = DataLoader(TensorDataset(ids, labels), batch_size=32)

encoder = Encoder()
model = Classifier(encoder)
compiled = torch.compile(model, backend="aot_eager")

trainer_kwargs = dict(
    accelerator="cpu", logger=False, enable_checkpointing=False,
    enable_progress_bar=False, enable_model_summary=False,
)

# stage 1: head only
encoder.freeze()
L.Trainer(max_epochs=1, **trainer_kwargs).fit(compiled, loader)

# stage 2: everything, smaller learning rate would be nicer but keep it simple
encoder.unfreeze()
L.Trainer(max_epochs=1, **trainer_kwargs).fit(compiled, loader)
print("done")
