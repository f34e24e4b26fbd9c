"""FedProx with an adaptive proximal coefficient mu.

Each round a few clients start from the global model and run local SGD on
loss + mu/2 * ||w - w_global||^2.  The server raises mu when the average
local loss goes up and lowers it when it goes down (FedProx paper, sec. 5.3).
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_CLIENTS, ROUNDS, LOCAL_STEPS, DIM, CLASSES = 4, 5, 3, 20, 5


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(DIM, 32)
        self.fc2 = nn.Linear(32, CLASSES)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def fedprox_loss(model, global_params, x, y, mu):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    prox = 0.0
    for p, g in zip(model.parameters(), global_params):
        prox = prox + (p - g).pow(2).sum()
    return loss + 0.5 * mu * prox, loss


compiled_loss = torch.compile(fedprox_loss, backend="aot_eager")

# non-iid client data: each client has a shifted mean
client_data = []
for c in range(N_CLIENTS):
    x = torch.randn(48, DIM) + 0.5 * c
    y = torch.randint(0, CLASSES, (48,))
    client_data.append((x, y))

global_model = MLP()
mu = 0.01
prev_avg = None
for rnd in range(ROUNDS):
    global_params = [p.detach().clone() for p in global_model.parameters()]
    states, losses = [], []
    for c, (x, y) in enumerate(client_data):
        local = copy.deepcopy(global_model)
        opt = torch.optim.SGD(local.parameters(), lr=0.05)
        for step in range(LOCAL_STEPS):
            idx = torch.randint(0, x.shape[0], (16,))
            total, ce = compiled_loss(local, global_params, x[idx], y[idx], mu)
            opt.zero_grad()
            total.backward()
            opt.step()
        states.append(local.state_dict())
        losses.append(ce.item())
    # FedAvg of the client weights
    avg_state = {k: torch.stack([s[k] for s in states]).mean(0) for k in states[0]}
    global_model.load_state_dict(avg_state)
    avg = sum(losses) / len(losses)
    if prev_avg is not None:
        mu = mu * 10 if avg > prev_avg else mu / 10
        mu = min(max(mu, 0.001), 1.0)
    prev_avg = avg
    print(f"round {rnd}: avg local loss {avg:.4f}  next mu {mu}")
