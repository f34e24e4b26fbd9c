import torch
from transformers import Qwen2Config, Qwen2ForCausalLM

torch.manual_seed(0)

config = Qwen2Config(
    vocab_size=128,
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=1,
    num_attention_heads=2,
    num_key_value_heads=1,
    max_position_embeddings=64,
    pad_token_id=0,
    eos_token_id=1,
)
model = Qwen2ForCausalLM(config).eval()
model.compile(backend="aot_eager")

prompt = torch.randint(2, 128, (1, 8))
settings = [
    dict(num_beams=1),                   # greedy, as in the chat demo
    dict(num_beams=1),
    dict(num_beams=3),                   # beam search for the summary endpoint
    dict(num_beams=1, use_cache=False),  # memory-saving mode for long prompts
]
for kw in settings:
    with torch.no_grad():
        out = model.generate(prompt, max_new_tokens=4, min_new_tokens=4, do_sample=False, **kw)
    print(kw, "->", out[0, 8:].tolist())
