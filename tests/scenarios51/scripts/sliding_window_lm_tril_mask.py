import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

SEQ = 16
VOCAB = 50


def local_causal_mask(seq_len, window):
    ones = torch.ones(seq_len, seq_len, dtype=torch.bool)
    causal = torch.tril(ones)
    too_far = torch.tril(ones, diagonal=-window)
    return causal & ~too_far


class LocalAttentionLM(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, VOCAB)

    def forward(self, ids, window):
        h = self.emb(ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        mask = local_causal_mask(ids.shape[1], window)
        scores = scores.masked_fill(~mask, float("-inf"))
        h = h + scores.softmax(-1) @ v
        h = h + self.mlp(self.norm(h))
        return self.lm_head(h)


def main():
    model = LocalAttentionLM()
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    # grow the attention window as training goes on
    schedule = [(0, 2), (3, 4), (6, 8), (9, 16)]
    data = torch.randint(0, VOCAB, (12, 8, SEQ + 1))
    window = schedule[0][1]
    for step in range(12):
        for start, w in schedule:
            if step >= start:
                window = w
        batch = data[step]
        logits = compiled(batch[:, :-1], window)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} window {window} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
