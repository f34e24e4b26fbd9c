"""Serving a small text classifier on CPU under mixed precision.

Requests carry the precision the client asked for; the server runs the
compiled model inside torch.autocast with that dtype.
"""

import torch
from torch import nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, vocab=500, dim=64, classes=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 128), nn.GELU(), nn.Linear(128, classes))

    def forward(self, tokens):
        return self.mlp(self.emb(tokens))


model = Classifier().eval()
compiled = torch.compile(model, backend="aot_eager")

PRECISIONS = {"bf16": torch.bfloat16, "fp16": torch.float16}


def handle(request):
    dtype = PRECISIONS[request["precision"]]
    with torch.no_grad(), torch.autocast("cpu", dtype=dtype):
        logits = compiled(request["tokens"])
    return logits.float().softmax(-1)


# a replayed slice of the request log
requests = []
for i, precision in enumerate(["bf16", "bf16", "fp16", "bf16", "fp16", "fp16"]):
    requests.append({"precision": precision, "tokens": torch.randint(0, 500, (8, 20))})

for i, req in enumerate(requests):
    probs = handle(req)
    print(f"request {i} {req['precision']} top class {probs.argmax(-1).tolist()}")
