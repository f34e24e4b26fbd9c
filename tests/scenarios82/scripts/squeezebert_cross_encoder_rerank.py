import torch
import torch.nn.functional as F
from transformers import SqueezeBertConfig, SqueezeBertForSequenceClassification

torch.manual_seed(0)

cfg = SqueezeBertConfig(vocab_size=100, hidden_size=32, embedding_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=64, max_position_embeddings=64,
                        num_labels=1)
reranker = SqueezeBertForSequenceClassification(cfg)
opt = torch.optim.AdamW(reranker.parameters(), lr=1e-3)
compiled = torch.compile(reranker, backend="aot_eager")


def pair_batch(g, n=8, q_len=8, d_len=24):
    q = torch.randint(2, 100, (n, q_len), generator=g)
    d = torch.randint(2, 100, (n, d_len), generator=g)
    ids = torch.cat([torch.full((n, 1), 1), q, torch.full((n, 1), 1), d], dim=1)
    types = torch.cat([torch.zeros(n, q_len + 2, dtype=torch.long),
                       torch.ones(n, d_len, dtype=torch.long)], dim=1)
    labels = torch.randint(0, 2, (n,), generator=g).float()
    return ids, types, labels


g = torch.Generator().manual_seed(4)
dev = [pair_batch(g) for _ in range(2)]
for epoch in range(3):
    compiled.train()
    for _ in range(4):
        ids, types, labels = pair_batch(g)
        logits = compiled(input_ids=ids, token_type_ids=types).logits.squeeze(-1)
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        loss.backward()
        opt.step()
        opt.zero_grad()
    compiled.eval()
    with torch.no_grad():
        acc = []
        for ids, types, labels in dev:
            scores = compiled(input_ids=ids, token_type_ids=types).logits.squeeze(-1)
            acc.append(((scores > 0).float() == labels).float().mean())
    print(f"epoch {epoch} loss {loss.item():.4f} dev acc {torch.stack(acc).mean():.3f}")
