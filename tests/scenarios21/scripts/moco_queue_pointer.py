"""Self-supervised pretraining with a MoCo-style negative queue.

The key encoder is a momentum copy of the query encoder. Every step the new
keys are written into a fixed-size queue at `queue_ptr`, which wraps around.
"""

import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

cfg = {"dim": 32, "queue_size": 256, "temperature": 0.07, "momentum": 0.99, "batch": 32}


class MoCo(nn.Module):
    def __init__(self, dim, queue_size, temperature, momentum):
        super().__init__()
        self.encoder_q = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(queue_size, dim), dim=1))
        self.queue_ptr = 0
        self.t = temperature
        self.m = momentum

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        n = keys.shape[0]
        ptr = self.queue_ptr
        self.queue[ptr:ptr + n] = keys
        self.queue_ptr = (ptr + n) % self.queue.shape[0]

    def forward(self, x_q, x_k):
        q = F.normalize(self.encoder_q(x_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(x_k), dim=1)
        pos = (q * k).sum(1, keepdim=True)
        neg = q @ self.queue.clone().t()
        logits = torch.cat([pos, neg], dim=1) / self.t
        labels = torch.zeros(q.shape[0], dtype=torch.long)
        loss = F.cross_entropy(logits, labels)
        self._enqueue(k)
        return loss


model = MoCo(cfg["dim"], cfg["queue_size"], cfg["temperature"], cfg["momentum"])
train_step = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9)

for step in range(12):
    x = torch.randn(cfg["batch"], 64)
    # two "views": small jitter as augmentation
    loss = train_step(x + 0.1 * torch.randn(x.shape), x + 0.1 * torch.randn(x.shape))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f} ptr {model.queue_ptr}")
