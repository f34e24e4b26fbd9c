# MoCo v2 contrastive pretraining: a key encoder updated by momentum and a
# queue of negative keys kept as a buffer. The enqueue position is kept as a
# plain Python int attribute (`self.ptr`) of the module and the enqueue is done
# inside the compiled forward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def encoder():
    return nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                         nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 16))


class MoCo(nn.Module):
    def __init__(self, K=32, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = encoder()
        self.encoder_k = encoder()
        self.encoder_k.load_state_dict(self.encoder_q.state_dict())
        self.encoder_k.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(16, K), dim=0))
        self.ptr = 0

    @torch.no_grad()
    def momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        bs = k.shape[0]
        self.queue[:, self.ptr:self.ptr + bs] = k.T
        return F.cross_entropy(logits, labels)


model = MoCo()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9, weight_decay=1e-4)
BS = 8

for step in range(6):
    x = torch.rand(BS, 3, 16, 16)
    im_q = x + 0.1 * torch.randn_like(x)
    im_k = x.flip(-1) + 0.1 * torch.randn_like(x)
    loss = cmodel(im_q, im_k)
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.momentum_update()
    model.ptr = (model.ptr + BS) % model.K
    print(f"step {step} loss {loss.item():.4f} ptr {model.ptr}")
