import time

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(
    nn.Conv1d(4, 32, 5, padding=2), nn.ReLU(),
    nn.Conv1d(32, 32, 5, padding=2), nn.ReLU(),
    nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 6),
).eval()
compiled = torch.compile(model, backend="aot_eager")
signals = torch.randn(8, 4, 256)

# how does CPU latency scale with the intra-op thread count?
for threads in [1, 2, 1]:
    torch.set_num_threads(threads)
    with torch.no_grad():
        compiled(signals)  # warm-up
        start = time.perf_counter()
        for _ in range(5):
            compiled(signals)
    ms = (time.perf_counter() - start) / 5 * 1000
    print(f"threads {threads}: {ms:.2f} ms")
