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
)
model = LlamaForCausalLM(config).eval()
compiled = torch.compile(model, backend="aot_eager")


def score(input_ids, attention_mask=None):
    with torch.no_grad():
        out = compiled(input_ids=input_ids, attention_mask=attention_mask, labels=input_ids)
    return out.loss.item()


# single unpadded prompts first, then padded batches from the collator
for step in range(5):
    input_ids = torch.randint(0, config.vocab_size, (2, 16))
    if step < 2:
        print(f"step {step} loss {score(input_ids):.4f}")
    else:
        mask = torch.ones(2, 16, dtype=torch.long)
        mask[1, :4] = 0  # left padding on the second row
        print(f"step {step} loss {score(input_ids, mask):.4f}")
