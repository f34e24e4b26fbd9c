"""Class-conditional sampling from a small pixel-space diffusion model.

Requests ask for a class id and a number of sampling steps; each denoising
step (model call plus scheduler update) is compiled as one function.
"""

import torch
from diffusers import HeunDiscreteScheduler, UNet2DModel

torch.manual_seed(0)

unet = UNet2DModel(
    sample_size=16,
    in_channels=3,
    out_channels=3,
    layers_per_block=1,
    block_out_channels=(16, 32),
    down_block_types=("DownBlock2D", "DownBlock2D"),
    up_block_types=("UpBlock2D", "UpBlock2D"),
    norm_num_groups=8,
    num_class_embeds=5,
).eval()

scheduler = HeunDiscreteScheduler(num_train_timesteps=1000)


@torch.compile(backend="aot_eager")
def denoise_step(sample, t, class_labels):
    model_input = scheduler.scale_model_input(sample, t)
    noise_pred = unet(model_input, t, class_labels=class_labels).sample
    return scheduler.step(noise_pred, t, sample).prev_sample


def generate(class_id, steps, batch=2):
    scheduler.set_timesteps(steps)
    sample = torch.randn(batch, 3, 16, 16) * scheduler.init_noise_sigma
    labels = torch.full((batch,), class_id, dtype=torch.long)
    for t in scheduler.timesteps:
        sample = denoise_step(sample, t, labels)
    return sample


requests = [(0, 4), (3, 4), (1, 6)]
with torch.no_grad():
    for class_id, steps in requests:
        images = generate(class_id, steps)
        print(f"class {class_id} steps {steps} mean {images.mean().item():.4f}")
