import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, vocab=200, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, 16))

    def forward(self, tokens):
        return self.proj(self.emb(tokens))


encoder = Encoder()
criterion = nn.CosineEmbeddingLoss(margin=0.0)


def pair_loss(a_tokens, b_tokens, label):
    za = encoder(a_tokens)
    zb = encoder(b_tokens)
    return criterion(za, zb, label)


compiled_pair_loss = torch.compile(pair_loss, backend="aot_eager")


def make_batch(n=24, length=12):
    a = torch.randint(0, 200, (n, length))
    same = torch.rand(n) < 0.5
    b = torch.where(same[:, None], (a + torch.randint(0, 3, (n, length))) % 200, torch.randint(0, 200, (n, length)))
    label = torch.where(same, 1.0, -1.0)
    return a, b, label


def main():
    global criterion
    opt = torch.optim.AdamW(encoder.parameters(), lr=2e-3)
    # harder negatives as training goes on
    margin_by_epoch = [0.0, 0.2, 0.4]
    for epoch, margin in enumerate(margin_by_epoch):
        criterion = nn.CosineEmbeddingLoss(margin=margin)
        running = 0.0
        for step in range(4):
            a, b, label = make_batch()
            opt.zero_grad()
            loss = compiled_pair_loss(a, b, label)
            loss.backward()
            opt.step()
            running += loss.item()
        with torch.no_grad():
            a, b, label = make_batch()
            sim = F.cosine_similarity(encoder(a), encoder(b))
            acc = ((sim > margin).float() * 2 - 1 == label).float().mean()
        print(f"epoch {epoch} margin {margin} loss {running / 4:.4f} pair_acc {acc:.3f}")


if __name__ == "__main__":
    main()
