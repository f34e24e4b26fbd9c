"""A LoRA-tuned tiny Nemotron classifier-style scorer is served in float32 for
the first requests, then the base weights are cast to bfloat16 to save memory
(a poor man's quantisation) while the compiled serving function stays in place."""
import torch
from transformers import NemotronConfig, NemotronForCausalLM
from peft import LoraConfig, get_peft_model

torch.manual_seed(0)

cfg = NemotronConfig(vocab_size=128, hidden_size=32, intermediate_size=64,
                     num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                     max_position_embeddings=64, partial_rotary_factor=0.5)
base = NemotronForCausalLM(cfg)
model = get_peft_model(base, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"],
                                        lora_dropout=0.0, init_lora_weights=False))
model.eval()


@torch.compile(backend="aot_eager")
def next_token_probs(ids):
    logits = model(input_ids=ids).logits[:, -1, :]
    return torch.softmax(logits.float(), dim=-1)


def serve(batch_id):
    ids = torch.randint(0, 128, (2, 10))
    with torch.no_grad():
        p = next_token_probs(ids)
    top = p.topk(3, dim=-1)
    print(f"batch {batch_id}: dtype={next(model.parameters()).dtype} top={top.indices.tolist()}")


for b in range(3):
    serve(b)

# memory pressure: cast the frozen base weights to bf16, keep LoRA in fp32
for name, param in model.named_parameters():
    if "lora_" not in name:
        param.data = param.data.to(torch.bfloat16)
for b in range(3, 6):
    serve(b)
