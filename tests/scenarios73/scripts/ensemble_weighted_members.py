import torch
import torch.nn as nn

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, width), nn.SiLU(), nn.Linear(width, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


MEMBERS = {"small": Regressor(16).eval(), "wide": Regressor(64).eval(), "mid": Regressor(32).eval()}


@torch.compile(backend="aot_eager")
def ensemble_predict(x, members, weights):
    total = sum(weights)
    out = torch.zeros(x.shape[0])
    for model, w in zip(members, weights):
        out = out + (w / total) * model(x)
    return out


def serve(request):
    names = request["members"]
    members = [MEMBERS[n] for n in names]
    weights = request.get("weights") or [1.0] * len(names)
    return ensemble_predict(request["x"], members, weights)


REQUESTS = [
    {"members": ["small", "wide", "mid"]},
    {"members": ["small", "wide", "mid"], "weights": [0.2, 0.5, 0.3]},
    {"members": ["small", "wide", "mid"], "weights": [0.1, 0.6, 0.3]},
    {"members": ["wide", "mid"], "weights": [0.7, 0.3]},
    {"members": ["small", "wide", "mid"], "weights": [0.3, 0.3, 0.4]},
    {"members": ["wide", "mid"], "weights": [0.5, 0.5]},
]

with torch.no_grad():
    for i, req in enumerate(REQUESTS):
        req["x"] = torch.randn(8, 10)
        y = serve(req)
        print(i, req["members"], [round(v, 3) for v in y[:3].tolist()])
