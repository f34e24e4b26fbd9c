"""ColBERT-style late-interaction retriever trained in hard-negative mining rounds.

Round 0 trains with in-batch negatives only. Before each later round the
current model mines one more hard negative per query from a candidate pool,
so the loss receives a list of negative document batches that grows.
"""
import torch
import torch.nn.functional as F
from transformers import BertConfig, BertModel

torch.manual_seed(0)

VOCAB, Q_LEN, D_LEN, DIM, B = 400, 8, 20, 16, 8

cfg = BertConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                 num_hidden_layers=2, num_attention_heads=2,
                 max_position_embeddings=32)
bert = BertModel(cfg, add_pooling_layer=False)
proj = torch.nn.Linear(32, DIM, bias=False)
params = list(bert.parameters()) + list(proj.parameters())


def embed(ids, mask):
    h = bert(input_ids=ids, attention_mask=mask).last_hidden_state
    return F.normalize(proj(h), dim=-1) * mask.unsqueeze(-1)


def maxsim(q, d):
    # q: (B, Lq, D), d: (N, Ld, D) -> (B, N)
    return torch.einsum("qid,njd->qnij", q, d).amax(dim=-1).sum(dim=-1)


def colbert_loss(q_ids, q_mask, pos_ids, pos_mask, negatives):
    q = embed(q_ids, q_mask)
    docs = [embed(pos_ids, pos_mask)]
    docs += [embed(ids, mask) for ids, mask in negatives]
    scores = maxsim(q, torch.cat(docs, dim=0))
    return F.cross_entropy(scores / 0.05, torch.arange(q.shape[0]))


train_step = torch.compile(colbert_loss, backend="aot_eager")


def tokens(n, length):
    ids = torch.randint(5, VOCAB, (n, length))
    lengths = torch.randint(length // 2, length + 1, (n,))
    mask = (torch.arange(length)[None, :] < lengths[:, None]).long()
    return ids * mask, mask


pool_ids, pool_mask = tokens(32, D_LEN)
queries = [tokens(B, Q_LEN) for _ in range(3)]
positives = [tokens(B, D_LEN) for _ in range(3)]
opt = torch.optim.Adam(params, lr=3e-4)
mined = [[] for _ in queries]

for rnd in range(3):
    if rnd > 0:
        with torch.no_grad():
            pool = embed(pool_ids, pool_mask)
            for b, (q_ids, q_mask) in enumerate(queries):
                s = maxsim(embed(q_ids, q_mask), pool)
                pick = s.argsort(dim=1, descending=True)[:, rnd - 1]
                mined[b].append((pool_ids[pick], pool_mask[pick]))
    for b in range(len(queries)):
        loss = train_step(*queries[b], *positives[b], mined[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"round {rnd}: {len(mined[0])} mined negatives per query, loss {loss.item():.3f}")
