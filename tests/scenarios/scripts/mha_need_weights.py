import torch
from torch import nn

torch.manual_seed(0)

attn = nn.MultiheadAttention(embed_dim=32, num_heads=4, batch_first=True)
compiled_attn = torch.compile(attn, backend="aot_eager")
opt = torch.optim.Adam(attn.parameters(), lr=1e-3)

for step in range(6):
    x = torch.randn(2, 10, 32)
    log_maps = step % 3 == 0  # keep attention maps for logging every 3rd step
    out, weights = compiled_attn(x, x, x, need_weights=log_maps)
    loss = out.pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    if weights is not None:
        print(f"step {step} loss {loss.item():.4f} attn entropy {-(weights * weights.log()).sum(-1).mean().item():.3f}")
    else:
        print(f"step {step} loss {loss.item():.4f}")
