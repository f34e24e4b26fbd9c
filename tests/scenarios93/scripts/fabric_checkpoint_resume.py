"""Tabular regression with Lightning Fabric: gradient accumulation with
no_backward_sync, a checkpoint saved mid-run with fabric.save, and the run
resumed from it in a fresh model with fabric.load."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.fabric import Fabric
from torch.utils.data import DataLoader, TensorDataset


def build_model():
    return nn.Sequential(nn.Linear(12, 48), nn.SiLU(), nn.LayerNorm(48), nn.Linear(48, 1))


def run_epochs(fabric, model, optimizer, loader, epochs, accumulate=2):
    for epoch in epochs:
        total = 0.0
        for i, (x, y) in enumerate(loader):
            is_accumulating = (i + 1) % accumulate != 0
            with fabric.no_backward_sync(model, enabled=is_accumulating):
                loss = F.mse_loss(model(x).squeeze(-1), y)
                fabric.backward(loss / accumulate)
            if not is_accumulating:
                optimizer.step()
                optimizer.zero_grad()
            total += loss.item()
        fabric.print(f"epoch {epoch}: loss {total / len(loader):.4f}")


def main():
    torch.manual_seed(0)
    fabric = Fabric(accelerator="cpu", devices=1)
    x = torch.randn(200, 12)
    y = x[:, :4].sum(-1) + 0.1 * torch.randn(200)
    loader = fabric.setup_dataloaders(DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True))

    model = torch.compile(build_model(), backend="aot_eager")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model, optimizer = fabric.setup(model, optimizer)
    run_epochs(fabric, model, optimizer, loader, range(0, 2))
    state = {"model": model, "optimizer": optimizer, "epoch": 2}
    fabric.save("ckpt/last.ckpt", state)

    # simulate a restart: new process state, new model, resume from checkpoint
    model2 = torch.compile(build_model(), backend="aot_eager")
    optimizer2 = torch.optim.AdamW(model2.parameters(), lr=1e-2)
    model2, optimizer2 = fabric.setup(model2, optimizer2)
    state2 = {"model": model2, "optimizer": optimizer2, "epoch": 0}
    fabric.load("ckpt/last.ckpt", state2)
    run_epochs(fabric, model2, optimizer2, loader, range(state2["epoch"], 4))


if __name__ == "__main__":
    main()
