"""Reward model from a tiny Llama config: linear-probe the score head first, then unfreeze the backbone."""
import torch
import torch.nn.functional as F
from transformers import LlamaConfig, LlamaForSequenceClassification

torch.manual_seed(0)
cfg = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                  num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=32,
                  num_labels=1, pad_token_id=0)
rm = LlamaForSequenceClassification(cfg)
crm = torch.compile(rm, backend="aot_eager")

for p in rm.model.parameters():
    p.requires_grad_(False)
opt = torch.optim.AdamW([p for p in rm.parameters() if p.requires_grad], lr=1e-3)

PROBE_STEPS, TOTAL_STEPS = 2, 4
for step in range(TOTAL_STEPS):
    if step == PROBE_STEPS:
        for p in rm.model.parameters():
            p.requires_grad_(True)
        opt.add_param_group({"params": list(rm.model.parameters()), "lr": 2e-4})
    chosen = torch.randint(1, 64, (4, 12))
    rejected = torch.randint(1, 64, (4, 12))
    scores = crm(input_ids=torch.cat([chosen, rejected])).logits.squeeze(-1)
    sc, sr = scores.chunk(2)
    loss = -F.logsigmoid(sc - sr).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} margin {(sc - sr).mean().item():.3f}")
