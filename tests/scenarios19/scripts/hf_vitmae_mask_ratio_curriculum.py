"""Masked-autoencoder pretraining with a masking curriculum.

Start easy (half the patches visible) and make the pretext task harder as
training goes on, ending at the paper's 75% masking.  Tiny random ViTMAE so
it runs on CPU.
"""

import torch
from transformers import ViTMAEConfig, ViTMAEForPreTraining

torch.manual_seed(0)

config = ViTMAEConfig(
    image_size=32,
    patch_size=8,
    num_channels=3,
    hidden_size=32,
    num_hidden_layers=1,
    num_attention_heads=2,
    intermediate_size=64,
    decoder_hidden_size=32,
    decoder_num_hidden_layers=1,
    decoder_num_attention_heads=2,
    decoder_intermediate_size=64,
    mask_ratio=0.5,
    norm_pix_loss=True,
)
model = ViTMAEForPreTraining(config)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1.5e-4, weight_decay=0.05)

# epoch -> masking ratio
curriculum = {0: 0.5, 2: 0.625, 4: 0.75}

images = torch.rand(64, 3, 32, 32)

for epoch in range(6):
    if epoch in curriculum:
        model.config.mask_ratio = curriculum[epoch]
        print(f"epoch {epoch}: mask ratio now {model.config.mask_ratio}")
    perm = torch.randperm(images.shape[0])
    total = 0.0
    for i in range(0, 64, 16):
        batch = images[perm[i : i + 16]]
        out = compiled(pixel_values=batch)
        opt.zero_grad()
        out.loss.backward()
        opt.step()
        total += out.loss.item()
    print(f"epoch {epoch} recon loss {total / 4:.4f}")
