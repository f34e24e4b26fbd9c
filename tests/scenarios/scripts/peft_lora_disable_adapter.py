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
lora = LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"], lora_dropout=0.0)
model = get_peft_model(base, lora)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)


def train_step():
    input_ids = torch.randint(0, config.vocab_size, (2, 16))
    loss = compiled(input_ids=input_ids, labels=input_ids).loss
    loss.backward()
    opt.step()
    opt.zero_grad()
    return loss.item()


def reference_loss():
    # loss of the frozen base model, for comparison
    input_ids = torch.randint(0, config.vocab_size, (2, 16))
    with model.disable_adapter():
        loss = compiled(input_ids=input_ids, labels=input_ids).loss
    return loss.item()


for round_ in range(2):
    for _ in range(2):
        print(f"round {round_} train loss {train_step():.4f}")
    print(f"round {round_} base-model loss {reference_loss():.4f}")
