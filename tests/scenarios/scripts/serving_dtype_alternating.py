import torch
from torch import nn

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.LayerNorm(128), nn.Linear(128, 32)).eval()
encoder_fp16 = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.LayerNorm(128), nn.Linear(128, 32)).eval()
encoder_fp16.load_state_dict(encoder.state_dict())
encoder_fp16.half()


@torch.compile(backend="aot_eager")
def embed(model, x):
    return nn.functional.normalize(model(x).float(), dim=-1)


# two client tiers: premium requests in fp32, batch requests in fp16
with torch.inference_mode():
    for req in range(6):
        if req % 2 == 0:
            e = embed(encoder, torch.randn(4, 64))
        else:
            e = embed(encoder_fp16, torch.randn(4, 64, dtype=torch.float16))
        print(f"request {req} dtype {'fp32' if req % 2 == 0 else 'fp16'} norm {e.norm(dim=-1).mean().item():.3f}")
