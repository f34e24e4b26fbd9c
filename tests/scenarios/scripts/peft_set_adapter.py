import torch
from peft import LoraConfig, get_peft_model
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
base = LlamaForCausalLM(config)
model = get_peft_model(base, LoraConfig(r=4, target_modules=["q_proj", "v_proj"]), adapter_name="a")
model.add_adapter("b", LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
model.eval()
compiled = torch.compile(model, backend="aot_eager")

# serve two fine-tunes from one base model: alternate adapters per request
requests = ["a", "a", "b", "b", "a", "b"]
with torch.no_grad():
    for i, adapter in enumerate(requests):
        model.set_adapter(adapter)
        input_ids = torch.randint(0, config.vocab_size, (1, 12))
        logits = compiled(input_ids=input_ids).logits
        print(f"request {i} adapter {adapter} next token {logits[0, -1].argmax().item()}")
