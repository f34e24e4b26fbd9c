import torch
from transformers import BartConfig, BartForConditionalGeneration

torch.manual_seed(0)

config = BartConfig(
    vocab_size=128,
    d_model=32,
    encoder_layers=1,
    decoder_layers=1,
    encoder_attention_heads=2,
    decoder_attention_heads=2,
    encoder_ffn_dim=64,
    decoder_ffn_dim=64,
    max_position_embeddings=64,
)
model = BartForConditionalGeneration(config)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(5):
    src = torch.randint(3, 128, (2, 20))
    labels = torch.randint(3, 128, (2, 12))
    batch = {"input_ids": src, "labels": labels}
    if step >= 2:
        # from step 2 the collator pads targets and sends their mask too
        dmask = torch.ones(2, 12, dtype=torch.long)
        dmask[1, 9:] = 0
        batch["decoder_attention_mask"] = dmask
    loss = compiled(**batch).loss
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
