import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, d_in=32, d_out=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, d_out))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


class MoCo(nn.Module):
    def __init__(self, K=64, dim=16, T=0.07):
        super().__init__()
        self.q_enc = Encoder()
        self.k_enc = Encoder()
        self.k_enc.load_state_dict(self.q_enc.state_dict())
        self.k_enc.requires_grad_(False)
        self.K, self.T = K, T
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=-1))
        self.queue_ptr = 0

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        n = keys.shape[0]
        idx = torch.arange(self.queue_ptr, self.queue_ptr + n) % self.K
        self.queue.index_copy_(0, idx, keys)
        self.queue_ptr = (self.queue_ptr + n) % self.K

    def forward(self, x_q, x_k):
        q = self.q_enc(x_q)
        with torch.no_grad():
            k = self.k_enc(x_k)
        l_pos = (q * k).sum(-1, keepdim=True)
        l_neg = q @ self.queue.clone().t()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return F.cross_entropy(logits, labels)


model = MoCo()
opt = torch.optim.SGD(model.q_enc.parameters(), lr=0.05, momentum=0.9)
cmodel = torch.compile(model, backend="aot_eager")

for step in range(10):
    x = torch.randn(16, 32)
    loss = cmodel(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for pk, pq in zip(model.k_enc.parameters(), model.q_enc.parameters()):
            pk.mul_(0.999).add_(pq, alpha=0.001)
    print(f"step {step} loss {loss.item():.4f} ptr {model.queue_ptr}")
