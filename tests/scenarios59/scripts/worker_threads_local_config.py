import threading

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

worker_cfg = threading.local()


class Scorer(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.score = nn.Linear(dim, 4)

    def forward(self, x):
        h = torch.tanh(self.proj(x))
        if getattr(worker_cfg, "normalize", False):
            h = F.normalize(h, dim=-1)
        return self.score(h) * getattr(worker_cfg, "gain", 1.0)


model = Scorer().eval()
cmodel = torch.compile(model, backend="aot_eager")

inputs = [torch.randn(8, 24) for _ in range(4)]
results = {}


def worker(name, normalize, gain):
    worker_cfg.normalize = normalize
    worker_cfg.gain = gain
    outs = []
    with torch.no_grad():
        for x in inputs:
            outs.append(cmodel(x).argmax(-1))
    results[name] = torch.stack(outs)


# run the workers one at a time
for name, normalize, gain in [("ranker", True, 2.0), ("filter", False, 1.0)]:
    t = threading.Thread(target=worker, args=(name, normalize, gain), name=name)
    t.start()
    t.join()

for name, r in results.items():
    print(name, r.tolist())
