# Retrieval training with a document memory bank: every few steps the bank is
# re-encoded from the current document tower; new documents keep arriving, so
# the bank gets larger at each refresh.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM, REFRESH_EVERY = 256, 32, 4


class DocTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.mix = nn.Linear(DIM, DIM)

    def forward(self, ids):
        return F.normalize(self.mix(self.emb(ids).mean(1)), dim=-1)


class BankRetriever(nn.Module):
    def __init__(self):
        super().__init__()
        self.query = DocTower()
        self.docs = DocTower()
        self.bank = torch.zeros(0, DIM)  # filled by refresh_bank

    @torch.no_grad()
    def refresh_bank(self, corpus):
        self.bank = torch.cat([self.docs(chunk) for chunk in corpus.split(64)])

    def forward(self, q_ids, doc_ids, doc_index):
        q = self.query(q_ids)
        d = self.docs(doc_ids)
        bank_scores = q @ self.bank.T
        # don't let the stale copy of the positive compete with itself
        bank_scores = bank_scores.scatter(1, doc_index.unsqueeze(1), float("-inf"))
        logits = torch.cat([(q * d).sum(-1, keepdim=True), bank_scores], dim=1) / 0.07
        return F.cross_entropy(logits, torch.zeros(len(q), dtype=torch.long))


model = BankRetriever()
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
step_fn = torch.compile(model, backend="aot_eager")

corpus = torch.randint(0, VOCAB, (96, 12))
for step in range(12):
    if step % REFRESH_EVERY == 0:
        if step > 0:  # new documents were crawled since the last refresh
            corpus = torch.cat([corpus, torch.randint(0, VOCAB, (32, 12))])
        model.refresh_bank(corpus)
    idx = torch.randint(0, len(corpus), (16,))
    q_ids = corpus[idx, :5]
    loss = step_fn(q_ids, corpus[idx], idx)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} bank={tuple(model.bank.shape)} loss={loss.item():.4f}")
