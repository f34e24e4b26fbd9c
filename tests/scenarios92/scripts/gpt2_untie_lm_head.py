"""Tiny GPT-2 LM trained with tied embeddings, then the LM head is untied for fine-tuning."""
import torch
import torch.nn as nn
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

cfg = GPT2Config(vocab_size=96, n_positions=32, n_embd=32, n_layer=1, n_head=2,
                 tie_word_embeddings=True)
model = GPT2LMHeadModel(cfg)
model.train()
compiled = torch.compile(model, backend="aot_eager")


def batch():
    ids = torch.randint(0, cfg.vocab_size, (4, 16))
    return ids


def make_opt():
    return torch.optim.AdamW(model.parameters(), lr=3e-4)


opt = make_opt()
for step in range(6):
    if step == 3:
        # untie: give the output projection its own copy of the embedding matrix
        model.lm_head.weight = nn.Parameter(model.transformer.wte.weight.detach().clone())
        model.config.tie_word_embeddings = False
        opt = make_opt()
    ids = batch()
    out = compiled(input_ids=ids, labels=ids)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    tied = model.lm_head.weight is model.transformer.wte.weight
    print(f"step {step} loss {out.loss.item():.4f} tied={tied}")
