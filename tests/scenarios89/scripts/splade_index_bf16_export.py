"""SPLADE-style sparse retrieval on a tiny BERT masked-LM.

Queries and documents are encoded into vocabulary-sized term weights
(log(1 + relu(MLM logits)), max-pooled over tokens). Training uses in-batch
negatives plus FLOPS regularisation; afterwards the model is cast to bfloat16
and the document collection is encoded into a sparse inverted index.
"""
import torch
import torch.nn.functional as F
from transformers import BertConfig, BertForMaskedLM

torch.manual_seed(0)

VOCAB, Q_LEN, D_LEN = 500, 8, 24
LAMBDA_Q, LAMBDA_D = 3e-4, 1e-4

cfg = BertConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                 num_hidden_layers=2, num_attention_heads=2,
                 max_position_embeddings=64)
mlm = BertForMaskedLM(cfg)


def splade_encode(input_ids, attention_mask):
    logits = mlm(input_ids=input_ids, attention_mask=attention_mask).logits
    weights = torch.log1p(torch.relu(logits)) * attention_mask.unsqueeze(-1)
    return weights.amax(dim=1)


encode = torch.compile(splade_encode, backend="aot_eager")


def flops(reps):
    return (reps.abs().mean(dim=0) ** 2).sum()


def batch(n, length):
    ids = torch.randint(5, VOCAB, (n, length))
    lengths = torch.randint(length // 2, length + 1, (n,))
    mask = (torch.arange(length)[None, :] < lengths[:, None]).long()
    return ids * mask, mask


opt = torch.optim.AdamW(mlm.parameters(), lr=2e-4)
mlm.train()
for step in range(6):
    q_ids, q_mask = batch(8, Q_LEN)
    d_ids, d_mask = batch(8, D_LEN)
    q = encode(q_ids, q_mask)
    d = encode(d_ids, d_mask)
    scores = q @ d.t()
    loss = F.cross_entropy(scores, torch.arange(8))
    loss = loss + LAMBDA_Q * flops(q) + LAMBDA_D * flops(d)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.3f}")

# Build the index in bfloat16 to halve the memory of the term weights.
mlm.eval()
mlm.to(torch.bfloat16)
index = {}
with torch.no_grad():
    for shard in range(3):
        d_ids, d_mask = batch(16, D_LEN)
        reps = encode(d_ids, d_mask)
        for row, rep in enumerate(reps):
            terms = rep.nonzero().squeeze(-1)
            index[shard * 16 + row] = dict(zip(terms.tolist(), rep[terms].float().tolist()))
avg_terms = sum(len(v) for v in index.values()) / len(index)
print(f"indexed {len(index)} documents, {avg_terms:.1f} terms per document")
