import torch
from transformers import RoFormerConfig, RoFormerForQuestionAnswering

torch.manual_seed(0)

cfg = RoFormerConfig(vocab_size=150, embedding_size=32, hidden_size=32, num_hidden_layers=2,
                     num_attention_heads=2, intermediate_size=64, max_position_embeddings=128)
model = RoFormerForQuestionAnswering(cfg).eval()


@torch.compile(backend="aot_eager")
def best_span(input_ids, attention_mask, context_start, max_answer_len):
    out = model(input_ids=input_ids, attention_mask=attention_mask)
    start, end = out.start_logits, out.end_logits
    seq = start.size(1)
    scores = start[:, :, None] + end[:, None, :]
    pos = torch.arange(seq)
    valid = (pos[None, :] >= pos[:, None]) & (pos[None, :] - pos[:, None] < max_answer_len)
    valid = valid & (pos[:, None] >= context_start)
    scores = scores.masked_fill(~valid[None], float("-inf"))
    flat = scores.flatten(1).argmax(-1)
    return flat // seq, flat % seq


# requests from different clients: short factoid answers vs. longer extracts
requests = [
    ("faq", 15),
    ("faq", 15),
    ("legal", 30),
    ("faq", 15),
    ("support", 20),
    ("legal", 30),
    ("support", 20),
]
g = torch.Generator().manual_seed(2)
with torch.no_grad():
    for client, max_len in requests:
        ids = torch.randint(5, 150, (2, 64), generator=g)
        mask = torch.ones_like(ids)
        s, e = best_span(ids, mask, 12, max_len)
        print(client, s.tolist(), e.tolist())
