"""Training a small iterative flow-refinement network (RAFT-style).

The number of refinement iterations is sampled per batch during training
(cheap batches early, more iterations later), and evaluation uses more.
"""

import random

import torch
from torch import nn

torch.manual_seed(0)
random.seed(0)


class Refiner(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.encoder = nn.Conv2d(6, ch, 3, padding=1)
        self.update = nn.Sequential(nn.Conv2d(ch + 2, ch, 3, padding=1), nn.ReLU(),
                                    nn.Conv2d(ch, 2, 3, padding=1))

    def forward(self, frame1, frame2, iters):
        feat = torch.relu(self.encoder(torch.cat([frame1, frame2], dim=1)))
        flow = torch.zeros_like(frame1[:, :2])
        predictions = []
        for _ in range(iters):
            flow = flow + self.update(torch.cat([feat, flow], dim=1))
            predictions.append(flow)
        return predictions


model = Refiner()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(8):
    iters = random.choice([2, 3, 4])
    f1, f2 = torch.randn(2, 3, 32, 32), torch.randn(2, 3, 32, 32)
    target = torch.randn(2, 2, 32, 32)
    preds = compiled(f1, f2, iters)
    # later iterations weigh more, as in the RAFT sequence loss
    loss = sum(0.8 ** (len(preds) - i - 1) * (p - target).abs().mean() for i, p in enumerate(preds))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} iters {iters} loss {loss.item():.4f}")

with torch.no_grad():
    preds = compiled(torch.randn(2, 3, 32, 32), torch.randn(2, 3, 32, 32), 6)
    print("eval flow magnitude", preds[-1].abs().mean().item())
