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
model = get_peft_model(LlamaForCausalLM(config), LoraConfig(r=4, target_modules=["q_proj", "v_proj"]))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)


def evaluate(tag):
    with torch.no_grad():
        input_ids = torch.randint(0, config.vocab_size, (2, 16))
        loss = compiled(input_ids=input_ids, labels=input_ids).loss
    print(f"{tag} eval loss {loss.item():.4f}")


for step in range(3):
    input_ids = torch.randint(0, config.vocab_size, (2, 16))
    loss = compiled(input_ids=input_ids, labels=input_ids).loss
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"train step {step} loss {loss.item():.4f}")
evaluate("lora")

# fold the adapter into the base weights for serving, keep using the compiled handle
model.merge_and_unload()
for _ in range(2):
    evaluate("merged")
