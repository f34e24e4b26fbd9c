"""LiT-style contrastive image-text training of a tiny CLIP.

The image tower is locked for the first epoch (only the text tower and the
projections learn), then unlocked and fine-tuned with a small learning rate.
"""
import math

import torch
from transformers import CLIPConfig, CLIPModel

torch.manual_seed(0)

VOCAB, TXT_LEN, BATCH = 200, 16, 8

cfg = CLIPConfig(
    text_config=dict(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                     num_hidden_layers=2, num_attention_heads=2,
                     max_position_embeddings=TXT_LEN),
    vision_config=dict(image_size=32, patch_size=8, hidden_size=32,
                       intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=2),
    projection_dim=16,
)
model = CLIPModel(cfg)
model.train()


def make_pairs(n):
    images = torch.randn(n, 3, 32, 32)
    ids = torch.randint(3, VOCAB, (n, TXT_LEN))
    lengths = torch.randint(6, TXT_LEN + 1, (n,))
    mask = (torch.arange(TXT_LEN)[None, :] < lengths[:, None]).long()
    ids = ids * mask
    return images, ids, mask


def contrastive_step(pixel_values, input_ids, attention_mask):
    out = model(input_ids=input_ids, attention_mask=attention_mask,
                pixel_values=pixel_values, return_loss=True)
    return out.loss


step = torch.compile(contrastive_step, backend="aot_eager")


def set_image_tower_trainable(flag):
    model.vision_model.requires_grad_(flag)
    model.visual_projection.requires_grad_(flag)


set_image_tower_trainable(False)
opt = torch.optim.AdamW([
    {"params": model.text_model.parameters(), "lr": 5e-4},
    {"params": model.text_projection.parameters(), "lr": 5e-4},
    {"params": [model.logit_scale], "lr": 5e-4},
    {"params": model.vision_model.parameters(), "lr": 1e-4},
    {"params": model.visual_projection.parameters(), "lr": 1e-4},
], weight_decay=0.05)

for epoch in range(3):
    if epoch == 1:
        print("unlocking the image tower")
        set_image_tower_trainable(True)
    total = 0.0
    for it in range(3):
        images, ids, mask = make_pairs(BATCH)
        loss = step(images, ids, mask)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100.0))
        total += loss.item()
    print(f"epoch {epoch} loss {total / 3:.4f} scale {model.logit_scale.exp().item():.2f}")
