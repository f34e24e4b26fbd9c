"""Recommendation ranker served in fp32 for a warm-up, then its Linear layers
are swapped in place for int8 weight-only layers (per-output-channel scales)
to cut memory, and serving continues with the same compiled function."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Int8Linear(nn.Module):
    def __init__(self, lin: nn.Linear):
        super().__init__()
        w = lin.weight.detach()
        scale = w.abs().amax(dim=1, keepdim=True).clamp(min=1e-8) / 127.0
        self.register_buffer("qweight", torch.round(w / scale).clamp(-127, 127).to(torch.int8))
        self.register_buffer("scale", scale.squeeze(1))
        self.register_buffer("bias", lin.bias.detach().clone())

    def forward(self, x):
        return (x @ self.qweight.t().to(x.dtype)) * self.scale + self.bias


class Ranker(nn.Module):
    def __init__(self, n_feat=24, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(n_feat, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(torch.relu(self.fc2(torch.relu(self.fc1(x))))).squeeze(-1)


def quantize_linears_(module):
    for name, child in list(module.named_children()):
        if isinstance(child, nn.Linear):
            setattr(module, name, Int8Linear(child))
        else:
            quantize_linears_(child)


model = Ranker().eval()


@torch.compile(backend="aot_eager")
def rank(candidates):
    scores = model(candidates)
    return torch.topk(scores, k=5).indices


with torch.no_grad():
    for i in range(3):
        feats = torch.randn(32, 24)
        print("warm-up", i, rank(feats).tolist())
    ref = model(feats)
    quantize_linears_(model)
    print("int8 max abs err:", (model(feats) - ref).abs().max().item())
    for i in range(4):
        feats = torch.randn(32, 24)
        print("serve", i, rank(feats).tolist())
