"""Summarise per-request latency traces for the monitoring dashboard.

Each dashboard panel asks for its own histogram resolution, so the bin
count comes from the panel config that arrives with the request.
"""

import torch

torch.manual_seed(0)

PANELS = [
    {"name": "p-overview", "bins": 20, "lo": 0.0, "hi": 200.0},
    {"name": "p-overview", "bins": 20, "lo": 0.0, "hi": 200.0},
    {"name": "p-detail", "bins": 64, "lo": 0.0, "hi": 200.0},
    {"name": "p-coarse", "bins": 8, "lo": 0.0, "hi": 200.0},
    {"name": "p-overview", "bins": 20, "lo": 0.0, "hi": 200.0},
]


@torch.compile(backend="aot_eager")
def summarise(latencies_ms, bins, lo, hi):
    hist = torch.histc(latencies_ms, bins=bins, min=lo, max=hi)
    frac = hist / latencies_ms.numel()
    cdf = torch.cumsum(frac, dim=0)
    # median latency of this trace
    med = torch.kthvalue(latencies_ms, latencies_ms.numel() // 2).values
    return frac, cdf, med


def fake_traces(n=4096):
    # log-normal-ish latencies with a slow tail
    base = torch.exp(torch.randn(n) * 0.5 + 3.5)
    tail = (torch.rand(n) < 0.02).float() * 150.0
    return base + tail


for panel in PANELS:
    lat = fake_traces()
    frac, cdf, med = summarise(lat, panel["bins"], panel["lo"], panel["hi"])
    over = int((cdf < 0.99).sum())
    print(f"{panel['name']}: bins={panel['bins']} median={med.item():.1f}ms p99 bin={over}")
