import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=128, n_positions=128)
config._attn_implementation = "eager"
model = GPT2LMHeadModel(config).eval()
compiled = torch.compile(model, backend="aot_eager")

input_ids = torch.randint(0, config.vocab_size, (2, 16))
with torch.no_grad():
    for step in range(4):
        want_attn = step == 2  # inspect attention maps once
        out = compiled(input_ids=input_ids, output_attentions=want_attn)
        n_maps = len(out.attentions) if out.attentions is not None else 0
        print(f"step {step} attentions {n_maps} logits {out.logits.sum().item():.3f}")
