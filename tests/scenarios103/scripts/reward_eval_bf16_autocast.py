"""Reward model from a tiny BERT config: fp32 pairwise training, bf16-autocast validation."""
import torch
import torch.nn.functional as F
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)
cfg = BertConfig(vocab_size=60, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                 intermediate_size=64, max_position_embeddings=32, num_labels=1)
rm = BertForSequenceClassification(cfg)


@torch.compile(backend="aot_eager")
def pair_rewards(model, chosen, rejected):
    ids = torch.cat([chosen, rejected], 0)
    scores = model(input_ids=ids).logits.squeeze(-1)
    return scores.chunk(2)


opt = torch.optim.AdamW(rm.parameters(), lr=5e-4)
val_chosen = torch.randint(0, 60, (8, 16))
val_rejected = torch.randint(0, 60, (8, 16))
for epoch in range(2):
    rm.train()
    for step in range(2):
        c = torch.randint(0, 60, (8, 16))
        r = torch.randint(0, 60, (8, 16))
        sc, sr = pair_rewards(rm, c, r)
        loss = -F.logsigmoid(sc - sr).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    rm.eval()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        sc, sr = pair_rewards(rm, val_chosen, val_rejected)
    acc = (sc > sr).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} val pref acc {acc:.2f}")
