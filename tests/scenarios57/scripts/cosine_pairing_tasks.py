import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Tower(nn.Module):
    def __init__(self, d_in=24, d_emb=16):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(d_in, 32), nn.Tanh(), nn.Linear(32, d_emb))

    def forward(self, x):
        return self.proj(x)


tower = Tower()
opt = torch.optim.SGD(tower.parameters(), lr=0.05, momentum=0.9)


@torch.compile(backend="aot_eager")
def pair_step(a, b, target, margin):
    ea = tower(a)
    eb = tower(b)
    return F.cosine_embedding_loss(ea, eb, target, margin=margin)


def sample_pairs(n, noise):
    a = torch.randn(n, 24)
    same = torch.rand(n) < 0.5
    b = torch.where(same[:, None], a + noise * torch.randn(n, 24), torch.randn(n, 24))
    target = torch.where(same, torch.ones(n), -torch.ones(n))
    return a, b, target


# pairing tasks trained in turn, each with its own margin
TASKS = {
    "near_duplicates": {"margin": 0.0, "noise": 0.05},
    "paraphrase": {"margin": 0.2, "noise": 0.3},
    "topic_match": {"margin": 0.5, "noise": 0.8},
}

for rnd in range(2):
    for task, cfg in TASKS.items():
        for _ in range(3):
            a, b, t = sample_pairs(48, cfg["noise"])
            loss = pair_step(a, b, t, cfg["margin"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"round {rnd} {task}: {loss.item():.4f}")
