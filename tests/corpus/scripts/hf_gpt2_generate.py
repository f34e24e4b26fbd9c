import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=128, n_positions=128)
model = GPT2LMHeadModel(config).eval()
model.forward = torch.compile(model.forward, backend="aot_eager")

prompts = [
    torch.randint(0, config.vocab_size, (1, 12)),
    torch.randint(0, config.vocab_size, (1, 20)),
]

with torch.no_grad():
    for i, input_ids in enumerate(prompts):
        out = model.generate(
            input_ids,
            attention_mask=torch.ones_like(input_ids),
            max_new_tokens=6,
            do_sample=False,
            pad_token_id=0,
        )
        print(f"prompt {i}: {input_ids.shape[1]} -> {out.shape[1]} tokens")
