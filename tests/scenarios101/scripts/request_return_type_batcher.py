"""Micro-batching sentiment server: requests queue up and are flushed either
when 4 are waiting or on a timeout tick; each flush carries the caller's
`return_type` ("label", "probs" or "logits") into the compiled handler."""
import torch
import torch.nn as nn

torch.manual_seed(0)
FEAT, CLASSES = 40, 3
LABELS = ["neg", "neu", "pos"]

net = nn.Sequential(nn.Linear(FEAT, 64), nn.GELU(), nn.Linear(64, CLASSES)).eval()


@torch.compile(backend="aot_eager")
def predict(x, return_type):
    logits = net(x)
    if return_type == "logits":
        return logits
    probs = torch.softmax(logits, dim=-1)
    if return_type == "probs":
        return probs
    return probs.argmax(dim=-1)


class MicroBatcher:
    def __init__(self, max_batch=4):
        self.max_batch = max_batch
        self.queue = []

    def submit(self, feats, return_type):
        self.queue.append((feats, return_type))
        if len(self.queue) >= self.max_batch:
            return self.flush()
        return []

    def flush(self):
        out = []
        while self.queue:
            rt = self.queue[0][1]
            group = [f for f, r in self.queue if r == rt]
            self.queue = [(f, r) for f, r in self.queue if r != rt]
            with torch.no_grad():
                res = predict(torch.stack(group), rt)
            out.append((rt, len(group), res))
        return out


batcher = MicroBatcher()
arrivals = ["label"] * 8 + ["probs"] * 4 + ["label"] * 2 + ["logits"] * 4
for i, rt in enumerate(arrivals):
    for rt_done, n, res in batcher.submit(torch.randn(FEAT), rt):
        print(f"req {i}: flushed {n} x {rt_done} -> {tuple(res.shape)}")
    if i == 13:  # timeout tick
        for rt_done, n, res in batcher.flush():
            print(f"tick: flushed {n} x {rt_done} -> {tuple(res.shape)}")
