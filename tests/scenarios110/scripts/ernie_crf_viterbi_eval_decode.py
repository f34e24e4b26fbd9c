"""NER with an ERNIE encoder and a linear-chain CRF.

Training returns the CRF negative log-likelihood; evaluation (no tags given)
returns the Viterbi path under BIO transition constraints.
"""
import torch
import torch.nn as nn
from transformers import ErnieConfig, ErnieModel

torch.manual_seed(0)
LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
NT, SEQ = len(LABELS), 12


def bio_allowed():
    allowed = torch.ones(NT, NT, dtype=torch.bool)
    for j, lab in enumerate(LABELS):
        if lab.startswith("I-"):
            for i, prev in enumerate(LABELS):
                if prev[2:] != lab[2:]:
                    allowed[i, j] = False
    return allowed


class ErnieCrfTagger(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = ErnieConfig(vocab_size=120, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                          intermediate_size=64, max_position_embeddings=32)
        self.encoder = ErnieModel(cfg)
        self.emit = nn.Linear(32, NT)
        self.trans = nn.Parameter(torch.randn(NT, NT) * 0.1)
        self.register_buffer("allowed", bio_allowed())

    def transitions(self):
        return self.trans.masked_fill(~self.allowed, -1e4)

    def forward(self, input_ids, mask, tags=None):
        h = self.encoder(input_ids=input_ids, attention_mask=mask).last_hidden_state
        em = self.emit(h)
        tr = self.transitions()
        m = mask.bool()
        if tags is not None:
            gold = em.gather(-1, tags.unsqueeze(-1)).squeeze(-1)
            pair = tr[tags[:, :-1], tags[:, 1:]]
            score = (gold * m).sum(1) + (pair * m[:, 1:]).sum(1)
            alpha = em[:, 0]
            for t in range(1, em.size(1)):
                nxt = torch.logsumexp(alpha.unsqueeze(2) + tr + em[:, t].unsqueeze(1), dim=1)
                alpha = torch.where(m[:, t:t + 1], nxt, alpha)
            return (torch.logsumexp(alpha, -1) - score).mean()
        score, back = em[:, 0], []
        for t in range(1, em.size(1)):
            best, idx = (score.unsqueeze(2) + tr).max(1)
            score = torch.where(m[:, t:t + 1], best + em[:, t], score)
            back.append(idx)
        path = [score.argmax(-1)]
        for idx in reversed(back):
            path.append(idx.gather(1, path[-1].unsqueeze(1)).squeeze(1))
        return torch.stack(path[::-1], 1)


def batch(n=8):
    ids = torch.randint(5, 120, (n, SEQ))
    lens = torch.randint(6, SEQ + 1, (n,))
    mask = (torch.arange(SEQ)[None] < lens[:, None]).long()
    tags = torch.randint(0, NT, (n, SEQ)) * mask
    return ids * mask, mask, tags


model = ErnieCrfTagger()
step = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
val_ids, val_mask, val_tags = batch(16)

for epoch in range(2):
    model.train()
    for _ in range(3):
        ids, mask, tags = batch()
        loss = step(ids, mask, tags)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = step(val_ids, val_mask)
    acc = ((pred == val_tags) * val_mask).sum() / val_mask.sum()
    print(f"epoch {epoch} loss {loss.item():.3f} token acc {acc.item():.3f}")
