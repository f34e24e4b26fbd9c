import torch
from transformers import LlamaConfig, LlamaForCausalLM

torch.manual_seed(0)

config = LlamaConfig(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=1,
    num_attention_heads=2,
    num_key_value_heads=2,
    vocab_size=128,
    max_position_embeddings=128,
    attn_implementation="sdpa",
)
model = LlamaForCausalLM(config).eval()
compiled = torch.compile(model, backend="aot_eager")


def score(tag):
    input_ids = torch.randint(0, config.vocab_size, (2, 16))
    with torch.no_grad():
        logits = compiled(input_ids=input_ids).logits
    print(f"{tag} logits mean {logits.mean().item():.5f}")


score("sdpa")
# eager attention, e.g. to compare numerics or read attention maps
model.set_attn_implementation("eager")
score("eager")
score("eager")
model.set_attn_implementation("sdpa")
score("sdpa again")
