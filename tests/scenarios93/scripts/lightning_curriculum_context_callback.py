"""Next-token model trained with Lightning where a custom Callback grows the
context length (a curriculum) at the start of some epochs; the module's
forward crops the batch to pl_module.context_len. A Timer callback
bounds the run."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import Callback, Timer
from torch.utils.data import DataLoader, TensorDataset

VOCAB = 64


class TinyLM(L.LightningModule):
    def __init__(self, dim=32):
        super().__init__()
        self.context_len = 8
        self.emb = nn.Embedding(VOCAB, dim)
        self.pos = nn.Parameter(torch.zeros(32, dim))
        self.mix = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, VOCAB)

    def forward(self, tokens):
        tokens = tokens[:, : self.context_len]
        h = self.emb(tokens) + self.pos[: self.context_len]
        h = torch.cumsum(F.gelu(self.mix(h)), dim=1) / torch.arange(
            1, self.context_len + 1, device=h.device
        ).unsqueeze(-1)
        return self.out(h)

    def training_step(self, batch, batch_idx):
        (tokens,) = batch
        logits = self(tokens[:, :-1])
        target = tokens[:, 1 : self.context_len + 1]
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), target.reshape(-1))
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3)


class ContextCurriculum(Callback):
    def __init__(self, schedule):
        self.schedule = schedule

    def on_train_epoch_start(self, trainer, pl_module):
        if trainer.current_epoch in self.schedule:
            pl_module.context_len = self.schedule[trainer.current_epoch]
            print(f"epoch {trainer.current_epoch}: context_len -> {pl_module.context_len}")


def main():
    torch.manual_seed(0)
    data = torch.randint(0, VOCAB, (96, 33))
    loader = DataLoader(TensorDataset(data), batch_size=16, shuffle=True)
    model = TinyLM()
    model.compile(backend="aot_eager")
    trainer = L.Trainer(
        max_epochs=4,
        accelerator="cpu",
        devices=1,
        logger=False,
        callbacks=[ContextCurriculum({0: 8, 2: 16, 3: 32}), Timer(duration="00:00:05:00")],
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)
    print(f"final loss {trainer.callback_metrics['train_loss'].item():.4f}")


if __name__ == "__main__":
    main()
