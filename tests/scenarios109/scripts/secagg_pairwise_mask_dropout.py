"""Secure-aggregation style averaging (Bonawitz et al.) simulated in one process.

Every client adds pairwise masks derived from seeds shared with the other
clients to its fixed-point encoded update.  The server receives a dict
client_id -> masked update from the clients that survived the round, removes
the masks of dropped clients with the recovered seeds and decodes the mean.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

MOD = 2 ** 24
SCALE = 2 ** 10
N = 5
model = nn.Linear(16, 4)
dim = sum(p.numel() for p in model.parameters())
pair_seed = {(i, j): 1000 * i + j for i in range(N) for j in range(N) if i < j}


def mask_for(i, j):
    g = torch.Generator().manual_seed(pair_seed[(min(i, j), max(i, j))])
    return torch.randint(0, MOD, (dim,), generator=g, dtype=torch.int64)


def client_masked_update(cid, update, participants):
    enc = torch.round(update * SCALE).long() % MOD
    for other in participants:
        if other == cid:
            continue
        m = mask_for(cid, other)
        enc = (enc + m) % MOD if cid < other else (enc - m) % MOD
    return enc


def unmask_mean(masked, leftover_masks):
    total = torch.zeros(dim, dtype=torch.int64)
    for cid, enc in masked.items():
        total = (total + enc) % MOD
    total = (total - leftover_masks) % MOD
    signed = torch.where(total >= MOD // 2, total - MOD, total)
    return signed.double() / SCALE / len(masked)


server_unmask = torch.compile(unmask_mean, backend="aot_eager")

dropout_plan = [[], [], [3], [1, 4], [], [0]]
for rnd, dropped in enumerate(dropout_plan):
    selected = list(range(N))
    flat = torch.cat([p.detach().flatten() for p in model.parameters()])
    masked = {}
    for cid in selected:
        update = torch.randn(dim) * 0.01
        if cid not in dropped:
            masked[cid] = client_masked_update(cid, update, selected)
    # masks that survivors applied towards dropped clients do not cancel
    leftover = torch.zeros(dim, dtype=torch.int64)
    for cid in masked:
        for d in dropped:
            m = mask_for(cid, d)
            leftover = (leftover + m) % MOD if cid < d else (leftover - m) % MOD
    mean_update = server_unmask(masked, leftover)
    torch.nn.utils.vector_to_parameters((flat + mean_update.float()), model.parameters())
    print(f"round {rnd}: {len(masked)} survivors, |mean update| {mean_update.norm():.5f}")
