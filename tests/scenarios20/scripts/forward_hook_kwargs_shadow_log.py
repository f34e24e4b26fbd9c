"""Serve a small ranking model; during a shadow-logging window we record
what the model saw and returned (including the keyword arguments) so the
offline team can replay the traffic.
"""

import torch
from torch import nn

torch.manual_seed(0)


class Ranker(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.query = nn.Linear(d, d)
        self.doc = nn.Linear(d, d)

    def forward(self, q, docs, temperature=1.0):
        qv = self.query(q)[:, None, :]
        dv = self.doc(docs)
        return ((qv * dv).sum(-1) / temperature).softmax(-1)


shadow_records = []


def shadow_log(module, args, kwargs, output):
    shadow_records.append({"q": args[0].detach(), "kwargs": dict(kwargs), "scores": output.detach()})


ranker = Ranker().eval()
serve = torch.compile(ranker, backend="aot_eager")

handle = None
with torch.no_grad():
    for req in range(12):
        # ops turned shadow logging on for requests 4..7
        if req == 4:
            handle = ranker.register_forward_hook(shadow_log, with_kwargs=True)
        if req == 8:
            handle.remove()
        q = torch.randn(2, 32)
        docs = torch.randn(2, 10, 32)
        scores = serve(q, docs, temperature=0.5)
        print(f"request {req} top doc {scores.argmax(-1).tolist()}")

print(f"shadow records kept: {len(shadow_records)}")
