"""Expert-choice routing (each expert picks its top tokens) in a small
sequence encoder, trained on length-bucketed batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D, E, CAP = 32, 4, 2.0


class ExpertChoiceFFN(nn.Module):
    def __init__(self, d, n_experts, capacity_factor):
        super().__init__()
        self.gate = nn.Linear(d, n_experts, bias=False)
        self.w_in = nn.Parameter(torch.randn(n_experts, d, 2 * d) * d ** -0.5)
        self.w_out = nn.Parameter(torch.randn(n_experts, 2 * d, d) * (2 * d) ** -0.5)
        self.capacity_factor = capacity_factor

    def forward(self, x):
        t, d = x.shape
        n_e = self.w_in.size(0)
        per_expert = int(t * self.capacity_factor / n_e)
        scores = self.gate(x).softmax(dim=-1)               # (t, e)
        g, tok = torch.topk(scores.t(), per_expert, dim=-1)  # (e, c)
        picked = x[tok]                                      # (e, c, d)
        h = torch.bmm(F.gelu(torch.bmm(picked, self.w_in)), self.w_out)
        h = h * g.unsqueeze(-1)
        out = torch.zeros_like(x)
        out = out.index_add(0, tok.reshape(-1), h.reshape(-1, d))
        return out


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, D)
        self.attn = nn.MultiheadAttention(D, 4, batch_first=True)
        self.moe = ExpertChoiceFFN(D, E, CAP)
        self.cls = nn.Linear(D, 3)

    def forward(self, x):
        b, s, _ = x.shape
        h = self.inp(x)
        h = h + self.attn(h, h, h, need_weights=False)[0]
        h = h + self.moe(h.reshape(b * s, D)).reshape(b, s, D)
        return self.cls(h.mean(1))


model = Encoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

# batches come from a length-bucketing sampler
buckets = [16, 16, 24, 32, 24, 16]
for step, seq_len in enumerate(buckets):
    x = torch.randn(4, seq_len, 8)
    y = torch.randint(0, 3, (4,))
    loss = F.cross_entropy(compiled(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} seq_len={seq_len} loss={loss.item():.4f}")
