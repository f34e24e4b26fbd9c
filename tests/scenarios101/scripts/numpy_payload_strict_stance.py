"""Tabular fraud-scoring endpoint fed with numpy payloads. After warm-up the
server switches the compiler to "fail_on_recompile" so that production
traffic can never trigger a compile; a client that sends float64 arrays and a
client that sends a different batch size are caught, and the server falls
back to converting the payload before retrying. A nightly job then re-scores
a day of transactions through the same endpoint with the default stance."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
N_FEAT = 16

scorer = nn.Sequential(nn.Linear(N_FEAT, 32), nn.SiLU(), nn.Linear(32, 1)).eval()


@torch.compile(backend="aot_eager")
def fraud_score(x):
    return torch.sigmoid(scorer(x)).squeeze(-1)


def handle(payload, batch=8):
    x = torch.from_numpy(payload)
    try:
        with torch.no_grad():
            return fraud_score(x)
    except RuntimeError as err:
        print("strict stance refused:", type(err).__name__)
        x = x.to(torch.float32)
        if x.shape[0] < batch:
            x = torch.cat([x, x.new_zeros(batch - x.shape[0], N_FEAT)])
        with torch.no_grad():
            return fraud_score(x)[: payload.shape[0]]


# warm-up on the production batch shape
for _ in range(2):
    handle(rng.standard_normal((8, N_FEAT), dtype=np.float32))

torch.compiler.set_stance("fail_on_recompile")
payloads = [
    rng.standard_normal((8, N_FEAT), dtype=np.float32),
    rng.standard_normal((8, N_FEAT)),                     # float64 client
    rng.standard_normal((5, N_FEAT), dtype=np.float32),   # short batch
    rng.standard_normal((8, N_FEAT), dtype=np.float32),
]
for i, p in enumerate(payloads):
    print(f"payload {i} {p.dtype} {p.shape}:", handle(p).round(decimals=3).tolist())
torch.compiler.set_stance("default")

# nightly re-scoring job over the day's transactions, same endpoint code
nightly = rng.standard_normal((64, N_FEAT), dtype=np.float32)
print("nightly flagged:", int((handle(nightly) > 0.5).sum()))
