import torch
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

torch.manual_seed(0)

config = GPTNeoXConfig(
    vocab_size=128,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=64,
    max_position_embeddings=256,
    use_cache=False,
)
model = GPTNeoXForCausalLM(config)
model.train()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
compiled = torch.compile(model, backend="aot_eager")

# (seq_len, steps, activation checkpointing) per curriculum stage
stages = [(32, 3, False), (32, 3, True), (64, 3, True)]
for stage, (seq_len, steps, ckpt) in enumerate(stages):
    if ckpt and not model.is_gradient_checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        print("enabled gradient checkpointing")
    for step in range(steps):
        ids = torch.randint(0, 128, (2, 32))
        ids = ids.repeat(1, seq_len // 32)
        out = compiled(input_ids=ids, labels=ids)
        opt.zero_grad()
        out.loss.backward()
        opt.step()
        print(f"stage {stage} len {seq_len} step {step} loss {out.loss.item():.4f}")
