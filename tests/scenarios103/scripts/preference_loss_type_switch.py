"""Preference optimisation that switches the loss from sigmoid (DPO) to IPO half-way."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D, T = 48, 24, 10


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.rnn = nn.GRU(D, D, batch_first=True)
        self.out = nn.Linear(D, VOCAB)

    def forward(self, ids):
        return self.out(self.rnn(self.emb(ids))[0])


policy, ref = TinyLM(), TinyLM()
ref.load_state_dict(policy.state_dict())
for p in ref.parameters():
    p.requires_grad_(False)


def logps(model, ids):
    lp = torch.log_softmax(model(ids)[:, :-1], -1)
    return lp.gather(-1, ids[:, 1:, None]).squeeze(-1).sum(-1)


@torch.compile(backend="aot_eager")
def preference_loss(pc, pr, rc, rr, beta, loss_type="sigmoid"):
    logits = (pc - pr) - (rc - rr)
    if loss_type == "sigmoid":
        losses = -F.logsigmoid(beta * logits)
    elif loss_type == "ipo":
        losses = (logits - 1 / (2 * beta)) ** 2
    else:
        raise ValueError(loss_type)
    return losses.mean()


opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
config = {"beta": 0.1, "loss_type": "sigmoid"}
for step in range(6):
    if step == 3:
        config["loss_type"] = "ipo"
    chosen = torch.randint(0, VOCAB, (6, T))
    rejected = torch.randint(0, VOCAB, (6, T))
    with torch.no_grad():
        rc, rr = logps(ref, chosen), logps(ref, rejected)
    loss = preference_loss(logps(policy, chosen), logps(policy, rejected), rc, rr,
                           config["beta"], loss_type=config["loss_type"])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} {config['loss_type']} loss {loss.item():.4f}")
