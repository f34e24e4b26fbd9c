"""Federated averaging simulation on a small MLP.

Each round a random subset of clients trains locally; the server averages
their flat parameter vectors weighted by local dataset size.
"""

import random

import torch
from torch import nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

random.seed(0)
torch.manual_seed(0)

N_CLIENTS = 10


def make_model():
    return nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 3))


global_model = make_model()
client_data = []
for c in range(N_CLIENTS):
    n = 40 + 10 * c
    client_data.append((torch.randn(n, 20) + 0.1 * c, torch.randint(0, 3, (n,))))


@torch.compile(backend="aot_eager")
def aggregate(vectors, sizes):
    # weighted mean of the client parameter vectors
    total = sum(sizes)
    out = torch.zeros_like(vectors[0])
    for v, n in zip(vectors, sizes):
        out = out + v * (n / total)
    return out


def local_train(x, y, epochs=2):
    local = make_model()
    vector_to_parameters(parameters_to_vector(global_model.parameters()), local.parameters())
    opt = torch.optim.SGD(local.parameters(), lr=0.1)
    for _ in range(epochs):
        loss = nn.functional.cross_entropy(local(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return parameters_to_vector(local.parameters()).detach()


for rnd in range(6):
    # client availability varies from round to round
    k = random.randint(3, 6)
    chosen = random.sample(range(N_CLIENTS), k)
    vecs = [local_train(*client_data[c]) for c in chosen]
    sizes = [len(client_data[c][1]) for c in chosen]
    new_vec = aggregate(vecs, sizes)
    vector_to_parameters(new_vec, global_model.parameters())
    with torch.no_grad():
        acc = sum(
            (global_model(x).argmax(1) == y).float().mean().item() for x, y in client_data
        ) / N_CLIENTS
    print(f"round {rnd} clients {sorted(chosen)} acc {acc:.3f}")
