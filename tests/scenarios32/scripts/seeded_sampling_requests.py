"""Serving a small generative decoder that turns noise into feature vectors.

Clients may send a seed to get reproducible samples; requests without a
seed draw from the global RNG. The noise is drawn inside the compiled
sampling function so the whole request runs as one compiled call.
"""

import torch
from torch import nn

torch.manual_seed(0)

decoder = nn.Sequential(nn.Linear(8, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 20)).eval()


@torch.compile(backend="aot_eager")
def sample(n, generator):
    z = torch.randn(n, 8, generator=generator)
    return torch.tanh(decoder(z))


requests = [
    {"n": 4, "seed": 123},
    {"n": 4, "seed": 7},
    {"n": 4, "seed": None},
    {"n": 4, "seed": 123},
    {"n": 4, "seed": None},
]



def respond(req):
    gen = None
    if req["seed"] is not None:
        gen = torch.Generator().manual_seed(req["seed"])
    with torch.no_grad():
        out = sample(req["n"], gen)
    return {"seed": req["seed"], "samples": out.tolist()}


seen = {}
for i, req in enumerate(requests):
    reply = respond(req)
    first = reply["samples"][0][0]
    # same seed must give the same samples, that is what clients pay for
    if req["seed"] is not None and req["seed"] in seen:
        print(f"request {i} seed={req['seed']} reproducible={seen[req['seed']] == first}")
    else:
        print(f"request {i} seed={req['seed']} first={first:.4f}")
    if req["seed"] is not None:
        seen[req["seed"]] = first
