import torch
from transformers import T5Config, T5ForConditionalGeneration

torch.manual_seed(0)

config = T5Config(
    vocab_size=128,
    d_model=32,
    d_kv=16,
    d_ff=64,
    num_layers=1,
    num_decoder_layers=1,
    num_heads=2,
    decoder_start_token_id=0,
    pad_token_id=0,
    eos_token_id=1,
)
model = T5ForConditionalGeneration(config).eval()
model.compile(backend="aot_eager")

for prompt_len in [7, 11]:
    input_ids = torch.randint(2, config.vocab_size, (1, prompt_len))
    with torch.no_grad():
        out = model.generate(input_ids, max_new_tokens=5, do_sample=False, min_new_tokens=5)
    print(f"prompt {prompt_len} -> {out[0].tolist()}")
