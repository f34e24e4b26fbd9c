"""Fine-tune a small Granite LM and dump attention maps for the validation report each epoch."""
import torch
from transformers import GraniteConfig, GraniteForCausalLM

torch.manual_seed(0)

config = GraniteConfig(
    vocab_size=200,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=4,
    max_position_embeddings=128,
    attn_implementation="sdpa",
)
model = GraniteForCausalLM(config)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)


def forward(input_ids, labels=None, output_attentions=False):
    return model(input_ids=input_ids, labels=labels, use_cache=False, output_attentions=output_attentions)


forward = torch.compile(forward, backend="aot_eager")
val_ids = torch.randint(0, config.vocab_size, (2, 32))
attention_report = []

for epoch in range(3):
    model.train()
    for _ in range(3):
        ids = torch.randint(0, config.vocab_size, (4, 32))
        loss = forward(ids, labels=ids).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    model.eval()
    with torch.no_grad():
        val_loss = forward(val_ids, labels=val_ids).loss
    # sdpa cannot return attention weights, switch to eager just for the dump
    model.set_attn_implementation("eager")
    with torch.no_grad():
        out = forward(val_ids, output_attentions=True)
    attention_report.append(torch.stack(out.attentions).mean(dim=(1, 2)))
    model.set_attn_implementation("sdpa")
    print(f"epoch {epoch}: train loss {loss.item():.3f}, val loss {val_loss.item():.3f}, attn maps {tuple(attention_report[-1].shape)}")
