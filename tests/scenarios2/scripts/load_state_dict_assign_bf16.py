import torch
from torch import nn

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


model = Encoder().eval()
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(4, 10, 32)

with torch.no_grad():
    print("random init:", compiled(x).norm().item())

    # a checkpoint saved in fp32 by the training job: load it in place, no copy
    ckpt = {k: torch.randn_like(v) * 0.02 for k, v in model.state_dict().items()}
    model.load_state_dict(ckpt, assign=True)
    print("fp32 checkpoint:", compiled(x).norm().item())

    # the release checkpoint was exported in bfloat16 to halve its size
    release = {k: v.to(torch.bfloat16) for k, v in ckpt.items()}
    model.load_state_dict(release, assign=True)
    print("bf16 checkpoint:", compiled(x.to(torch.bfloat16)).float().norm().item())
