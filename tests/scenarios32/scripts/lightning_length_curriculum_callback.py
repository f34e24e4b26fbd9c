"""Training a small sequence model to sort digits, short sequences first.

A callback raises the curriculum level at the start of each epoch; the
module crops the training sequences to the length of the current level
before they go through the compiled encoder.
"""

import lightning as L
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
MAX_LEN, VOCAB = 24, 10


class Encoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.rnn_free = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, VOCAB)

    def forward(self, x):
        h = self.emb(x)
        h = h + self.rnn_free(h.cumsum(dim=1) / x.shape[1])
        return self.head(h)


class Sorter(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.encoder = torch.compile(Encoder(), backend="aot_eager")
        self.seq_len = 8

    def training_step(self, batch, batch_idx):
        (x,) = batch
        x = x[:, : self.seq_len]
        target = x.sort(dim=1).values
        logits = self.encoder(x)
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), target.reshape(-1))
        self.log("loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-3)


class LengthCurriculum(L.Callback):
    def __init__(self, lengths):
        self.lengths = lengths

    def on_train_epoch_start(self, trainer, pl_module):
        pl_module.seq_len = self.lengths[min(trainer.current_epoch, len(self.lengths) - 1)]


data = TensorDataset(torch.randint(0, VOCAB, (256, MAX_LEN)))
loader = DataLoader(data, batch_size=32, shuffle=True)

trainer = L.Trainer(
    max_epochs=4,
    limit_train_batches=4,
    accelerator="cpu",
    logger=False,
    enable_checkpointing=False,
    enable_model_summary=False,
    callbacks=[LengthCurriculum([8, 12, 16, 24])],
)
trainer.fit(Sorter(), loader)
