"""Fine-tune a small ELECTRA discriminator for sentiment, then look at attention.

Every few steps we run an analysis pass over a held-out batch and dump the
mean attention entropy per layer, to see whether the heads are collapsing.
"""

import torch
from transformers import ElectraConfig, ElectraForSequenceClassification

torch.manual_seed(0)

cfg = ElectraConfig(
    vocab_size=500,
    embedding_size=32,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=64,
    num_labels=2,
)
model = ElectraForSequenceClassification(cfg)
model.config.attn_implementation = "eager"
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)


def batch(n=8, length=24):
    ids = torch.randint(5, cfg.vocab_size, (n, length))
    mask = torch.ones(n, length, dtype=torch.long)
    mask[: n // 2, length - 6 :] = 0
    labels = torch.randint(0, 2, (n,))
    return ids, mask, labels


def attention_entropy(attentions):
    out = []
    for a in attentions:
        p = a.clamp_min(1e-9)
        out.append(float(-(p * p.log()).sum(-1).mean()))
    return out


held_ids, held_mask, _ = batch()

for step in range(9):
    model.train()
    ids, mask, labels = batch()
    out = compiled(input_ids=ids, attention_mask=mask, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} loss {out.loss.item():.4f}")

    if step % 4 == 3:
        # analysis pass: same model, ask for the attention maps too
        model.eval()
        with torch.no_grad():
            res = compiled(input_ids=held_ids, attention_mask=held_mask, output_attentions=True)
        print("  attention entropy per layer:", [round(e, 3) for e in attention_entropy(res.attentions)])
