"""FedRep-style personalised federated learning.

Every client keeps its own classification head; the shared body is averaged
by the server.  Locally each client first trains only its head (body frozen
with requires_grad_(False)) and then only the body (head frozen), as in
FedRep.  The personalised head of each client is restored with
load_state_dict at the start of its round.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ClientNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                                  nn.Linear(128, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.body(x))


model = ClientNet()
compiled = torch.compile(model, backend="aot_eager")
N_CLIENTS, ROUNDS = 3, 2
heads = {c: {k: v.clone() for k, v in model.head.state_dict().items()} for c in range(N_CLIENTS)}
data = {c: (torch.randn(24, 1, 12, 12) + 0.3 * c, torch.randint(0, 4, (24,))) for c in range(N_CLIENTS)}


def local_epochs(part, steps, x, y):
    model.body.requires_grad_(part == "body")
    model.head.requires_grad_(part == "head")
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05)
    for _ in range(steps):
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


global_body = {k: v.clone() for k, v in model.body.state_dict().items()}
for rnd in range(ROUNDS):
    bodies = []
    for c in range(N_CLIENTS):
        model.body.load_state_dict(global_body)
        model.head.load_state_dict(heads[c])
        x, y = data[c]
        lh = local_epochs("head", 2, x, y)
        lb = local_epochs("body", 1, x, y)
        heads[c] = {k: v.detach().clone() for k, v in model.head.state_dict().items()}
        bodies.append({k: v.detach().clone() for k, v in model.body.state_dict().items()})
        print(f"round {rnd} client {c}: head loss {lh:.4f} body loss {lb:.4f}")
    global_body = {k: torch.stack([b[k] for b in bodies]).mean(0) for k in global_body}
