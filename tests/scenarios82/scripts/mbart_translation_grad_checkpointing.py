import torch
from transformers import MBartConfig, MBartForConditionalGeneration

torch.manual_seed(0)

cfg = MBartConfig(vocab_size=120, d_model=32, encoder_layers=2, decoder_layers=2,
                  encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
                  decoder_ffn_dim=64, max_position_embeddings=64, pad_token_id=1,
                  eos_token_id=2, decoder_start_token_id=2, use_cache=False)
model = MBartForConditionalGeneration(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)


@torch.compile(backend="aot_eager")
def train_step(src, src_mask, labels):
    loss = model(input_ids=src, attention_mask=src_mask, labels=labels).loss
    loss.backward()
    return loss.detach()


def pairs(g):
    src = torch.randint(3, 120, (4, 20), generator=g)
    tgt = torch.randint(3, 120, (4, 16), generator=g)
    tgt[:, -1] = 2
    return src, torch.ones_like(src), tgt


g = torch.Generator().manual_seed(7)
model.train()
for epoch in range(3):
    if epoch == 1:
        # longer sequences from here on; save activation memory
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    for _ in range(3):
        loss = train_step(*pairs(g))
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
