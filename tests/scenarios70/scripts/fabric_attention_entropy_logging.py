import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.fabric import Fabric

torch.manual_seed(0)


class TinyEncoder(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, n_classes=3):
        super().__init__()
        self.heads = heads
        self.emb = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, ids, return_attn=False):
        b, t = ids.shape
        h = self.emb(ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.heads, -1).transpose(1, 2) for z in (q, k, v))
        attn = (q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5).softmax(-1)
        ctx = (attn @ v).transpose(1, 2).reshape(b, t, -1)
        logits = self.cls(self.out(ctx).mean(1))
        if return_attn:
            return logits, attn
        return logits


def main():
    fabric = Fabric(accelerator="cpu", devices=1)
    fabric.seed_everything(0)
    model = TinyEncoder()
    model = torch.compile(model, backend="aot_eager")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, opt = fabric.setup(model, opt)

    log_every = 4
    for step in range(10):
        ids = torch.randint(0, 64, (8, 16))
        y = ids[:, 0] % 3
        log_now = step % log_every == 0
        opt.zero_grad()
        if log_now:
            logits, attn = model(ids, return_attn=True)
            entropy = -(attn * attn.clamp_min(1e-9).log()).sum(-1).mean()
        else:
            logits = model(ids)
        loss = F.cross_entropy(logits, y)
        fabric.backward(loss)
        opt.step()
        if log_now:
            fabric.print(f"step {step} loss {loss.item():.4f} attn_entropy {entropy.item():.4f}")


if __name__ == "__main__":
    main()
