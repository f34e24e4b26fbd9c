"""Extractive span QA with Splinter; the span decoder limits answer length
per dataset (short entity answers vs longer free-text answers)."""
import torch
import torch.nn.functional as F
from transformers import SplinterConfig, SplinterForQuestionAnswering

torch.manual_seed(0)
cfg = SplinterConfig(vocab_size=150, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=64, question_token_id=104)
model = SplinterForQuestionAnswering(cfg)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
SEQ = 24


def qa_step(input_ids, attention_mask, starts, ends, max_answer_len):
    out = model(input_ids=input_ids, attention_mask=attention_mask)
    s, e = out.start_logits, out.end_logits
    loss = (F.cross_entropy(s, starts) + F.cross_entropy(e, ends)) / 2
    scores = s.unsqueeze(2) + e.unsqueeze(1)
    L = s.size(1)
    ok = torch.ones(L, L, dtype=torch.bool).triu().tril(max_answer_len - 1)
    scores = scores.masked_fill(~ok, float("-inf"))
    best = scores.flatten(1).argmax(-1)
    return loss, best // L, best % L


qa_step = torch.compile(qa_step, backend="aot_eager")

DATASETS = {"entity_qa": 3, "definition_qa": 8, "short_facts": 3, "long_answers": 12}


def make_batch(max_len, n=8):
    ids = torch.randint(5, 150, (n, SEQ))
    ids[:, 1] = 104
    mask = torch.ones(n, SEQ, dtype=torch.long)
    starts = torch.randint(3, SEQ - max_len, (n,))
    ends = starts + torch.randint(0, max_len, (n,))
    return ids, mask, starts, ends


for epoch in range(2):
    for name, max_len in DATASETS.items():
        ids, mask, starts, ends = make_batch(max_len)
        loss, ps, pe = qa_step(ids, mask, starts, ends, max_len)
        opt.zero_grad()
        loss.backward()
        opt.step()
        em = ((ps == starts) & (pe == ends)).float().mean()
        print(f"epoch {epoch} {name:14s} loss {loss.item():.3f} exact {em.item():.2f}")
