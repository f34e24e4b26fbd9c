# Late-interaction retriever: per-token query and document embeddings,
# scored by summing each query token's best-matching document token.
# Validation scores against a float32 token index; for serving the index is
# compacted to float16 to halve its memory and queried again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM, Q_LEN, D_LEN = 200, 16, 8, 24


class TokenEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.conv = nn.Conv1d(32, 32, kernel_size=3, padding=1)
        self.proj = nn.Linear(32, DIM, bias=False)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.conv(h.transpose(1, 2)).transpose(1, 2).relu()
        return F.normalize(self.proj(h), dim=-1)


encoder = TokenEncoder()
opt = torch.optim.Adam(encoder.parameters(), lr=2e-3)


@torch.compile(backend="aot_eager")
def late_interaction_scores(q_tok, d_tok):
    # q_tok: (Q, Lq, D), d_tok: (N, Ld, D) -> (Q, N)
    sim = torch.matmul(q_tok.unsqueeze(1), d_tok.transpose(1, 2).unsqueeze(0))
    return sim.amax(dim=-1).sum(dim=-1)


docs = torch.randint(1, VOCAB, (128, D_LEN))
queries = docs[:, torch.randperm(D_LEN)[:Q_LEN]]

for step in range(6):
    idx = torch.randint(0, 128, (16,))
    scores = late_interaction_scores(encoder(queries[idx]), encoder(docs[idx]))
    loss = F.cross_entropy(scores / 0.1, torch.arange(16))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")

encoder.eval()
with torch.no_grad():
    index = torch.cat([encoder(chunk) for chunk in docs.split(32)])
    q_tok = encoder(queries[:32])
    top1 = late_interaction_scores(q_tok, index).argmax(dim=1)
    print("val MRR@1 fp32:", (top1 == torch.arange(32)).float().mean().item())

    serving_index = index.to(torch.float16)
    print(f"index bytes {index.nbytes} -> {serving_index.nbytes}")
    top1 = late_interaction_scores(q_tok.to(torch.float16), serving_index).argmax(dim=1)
    print("serve MRR@1 fp16:", (top1 == torch.arange(32)).float().mean().item())
