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
model = LlamaForCausalLM(config)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


def train(steps, tag):
    for step in range(steps):
        input_ids = torch.randint(0, config.vocab_size, (2, 32))
        loss = compiled(input_ids=input_ids, labels=input_ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"{tag} step {step} loss {loss.item():.3f}")


train(2, "plain")
# running out of memory with longer sequences: trade compute for memory
model.gradient_checkpointing_enable()
train(2, "checkpointed")
