"""Report SSIM / PSNR of a tiny denoiser on several validation datasets."""
import torch
import torch.nn as nn
from torchmetrics.functional.image import (
    peak_signal_noise_ratio,
    structural_similarity_index_measure,
)

torch.manual_seed(0)

denoiser = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1)
)
denoiser.eval()

# each dataset stores images in its own value range
DATASETS = {
    "mnist_float": {"scale": 1.0, "data_range": 1.0},
    "camera_uint8": {"scale": 255.0, "data_range": 255.0},
    "ct_hu": {"scale": 4.0, "data_range": 4.0},
}


@torch.compile(backend="aot_eager")
def score(noisy, clean, data_range):
    pred = clean + 0.1 * denoiser(noisy / data_range) * data_range
    ssim = structural_similarity_index_measure(pred, clean, data_range=data_range)
    psnr = peak_signal_noise_ratio(pred, clean, data_range=data_range)
    return ssim, psnr


for epoch in range(2):
    for name, cfg in DATASETS.items():
        clean = torch.rand(4, 1, 32, 32) * cfg["scale"]
        noisy = clean + 0.05 * cfg["scale"] * torch.randn_like(clean)
        with torch.no_grad():
            ssim, psnr = score(noisy, clean, cfg["data_range"])
        print(f"epoch {epoch} {name}: ssim {ssim.item():.3f} psnr {psnr.item():.2f}")
