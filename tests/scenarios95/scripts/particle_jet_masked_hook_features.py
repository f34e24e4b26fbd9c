"""Particle-cloud jet tagger on padded, masked batches of particles.

Jets have different particle counts and are padded to 32 with a mask.
After training, a forward hook is attached to the encoder to collect
per-jet embeddings for a downstream analysis.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

MAX_PART = 32


class JetTagger(nn.Module):
    def __init__(self, feat=4, dim=32, n_cls=3):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(feat, dim), nn.GELU(), nn.Linear(dim, dim))
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.LayerNorm(dim))
        self.cls = nn.Linear(dim, n_cls)

    def forward(self, parts, mask):
        h = self.embed(parts)
        h = self.encoder(h) * mask.unsqueeze(-1)
        pooled = h.sum(1) / mask.sum(1, keepdim=True).clamp_min(1)
        return self.cls(pooled)


def make_jets(n_jets):
    counts = torch.randint(4, MAX_PART + 1, (n_jets,))
    mask = (torch.arange(MAX_PART).unsqueeze(0) < counts.unsqueeze(1)).float()
    pt = torch.rand(n_jets, MAX_PART, 1).exp()
    eta_phi = torch.randn(n_jets, MAX_PART, 2) * 0.4
    e = pt * torch.cosh(eta_phi[..., :1])
    parts = torch.cat([pt.log(), eta_phi, e.log()], dim=-1) * mask.unsqueeze(-1)
    labels = torch.randint(0, 3, (n_jets,))
    return parts, mask, labels


model = JetTagger()
tagger = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for step in range(5):
    parts, mask, labels = make_jets(64)
    loss = nn.functional.cross_entropy(tagger(parts, mask), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"train step {step} loss {loss.item():.4f}")

# collect encoder outputs for the analysis
collected = []


def keep_encoder_output(module, inputs, output):
    collected.append(output.detach())


handle = model.encoder.register_forward_hook(keep_encoder_output)
with torch.no_grad():
    for _ in range(3):
        parts, mask, labels = make_jets(64)
        pred = tagger(parts, mask).argmax(-1)
        print(f"analysis acc {(pred == labels).float().mean().item():.3f}")
handle.remove()
print("collected", len(collected), "encoder batches")
