"""Fine-tune a tiny diffusers AutoencoderKL with periodic validation."""
import torch
import torch.nn.functional as F
from diffusers import AutoencoderKL

torch.manual_seed(0)

vae = AutoencoderKL(
    in_channels=3, out_channels=3,
    down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
    up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"),
    block_out_channels=(16, 32), layers_per_block=1,
    latent_channels=4, norm_num_groups=8, sample_size=32,
)
opt = torch.optim.AdamW(vae.parameters(), lr=1e-4)
KL_WEIGHT = 1e-6


def vae_loss(images, sample_posterior):
    posterior = vae.encode(images).latent_dist
    z = posterior.sample() if sample_posterior else posterior.mode()
    recon = vae.decode(z).sample
    rec = F.mse_loss(recon, images)
    kl = posterior.kl().mean()
    return rec + KL_WEIGHT * kl, rec


compiled_loss = torch.compile(vae_loss, backend="aot_eager")

data = torch.rand(24, 3, 32, 32) * 2 - 1
val = torch.rand(8, 3, 32, 32) * 2 - 1

for step in range(6):
    batch = data[(step % 3) * 8:(step % 3) * 8 + 8]
    vae.train()
    loss, rec = compiled_loss(batch, True)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 2:
        vae.eval()
        with torch.no_grad():
            _, val_rec = compiled_loss(val, False)
        print(f"step {step} train rec {rec.item():.4f} val rec {val_rec.item():.4f}")
