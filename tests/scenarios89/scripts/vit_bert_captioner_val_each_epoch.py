"""Image captioning with a ViT encoder and a BERT decoder (cross-attention).

Teacher-forced training with AdamW; after every epoch the caption loss is
measured on a held-out split with the model in eval mode.
"""
import torch
from transformers import (BertConfig, ViTConfig, VisionEncoderDecoderConfig,
                          VisionEncoderDecoderModel)

torch.manual_seed(0)

VOCAB, CAP_LEN, PAD, BOS = 250, 12, 0, 1

enc_cfg = ViTConfig(image_size=32, patch_size=8, hidden_size=32,
                    intermediate_size=64, num_hidden_layers=2,
                    num_attention_heads=2)
dec_cfg = BertConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                     num_hidden_layers=2, num_attention_heads=2,
                     max_position_embeddings=32, is_decoder=True,
                     add_cross_attention=True)
cfg = VisionEncoderDecoderConfig.from_encoder_decoder_configs(enc_cfg, dec_cfg)
cfg.decoder_start_token_id = BOS
cfg.pad_token_id = PAD
model = VisionEncoderDecoderModel(config=cfg)
model.compile(backend="aot_eager")


def make_split(n):
    images = torch.randn(n, 3, 32, 32)
    caps = torch.randint(2, VOCAB, (n, CAP_LEN))
    lengths = torch.randint(5, CAP_LEN + 1, (n,))
    keep = torch.arange(CAP_LEN)[None, :] < lengths[:, None]
    labels = torch.where(keep, caps, torch.full_like(caps, -100))
    return images, labels


train_images, train_labels = make_split(48)
val_images, val_labels = make_split(16)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)

for epoch in range(3):
    model.train()
    for i in range(0, 48, 16):
        out = model(pixel_values=train_images[i:i + 16],
                    labels=train_labels[i:i + 16])
        opt.zero_grad()
        out.loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = model(pixel_values=val_images, labels=val_labels).loss
    print(f"epoch {epoch}: train {out.loss.item():.3f} val {val.item():.3f}")
