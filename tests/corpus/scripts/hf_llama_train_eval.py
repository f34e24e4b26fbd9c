import torch
from transformers import LlamaConfig, LlamaForCausalLM

torch.manual_seed(0)

config = LlamaConfig(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=2,
    num_key_value_heads=2,
    vocab_size=128,
    max_position_embeddings=128,
)
model = LlamaForCausalLM(config)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
compiled = torch.compile(model, backend="aot_eager")


def train(steps):
    model.train()
    for step in range(steps):
        input_ids = torch.randint(0, config.vocab_size, (2, 32))
        loss = compiled(input_ids=input_ids, labels=input_ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"train step {step} loss {loss.item():.3f}")


def evaluate():
    model.eval()
    with torch.no_grad():
        input_ids = torch.randint(0, config.vocab_size, (2, 32))
        loss = compiled(input_ids=input_ids, labels=input_ids).loss
    print(f"eval loss {loss.item():.3f}")


train(3)
evaluate()
train(2)
