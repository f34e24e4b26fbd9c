import torch
from torch import nn

torch.manual_seed(0)

layer = nn.TransformerEncoderLayer(d_model=32, nhead=2, dim_feedforward=64, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
head = nn.Linear(32, 4)
compiled = torch.compile(encoder, backend="aot_eager")
opt = torch.optim.SGD(list(encoder.parameters()) + list(head.parameters()), lr=0.01)

for step, seq_len in enumerate([10, 10, 12, 16, 10]):
    src = torch.randn(4, seq_len, 32)
    target = torch.randint(0, 4, (4,))
    hidden = compiled(src)
    loss = nn.functional.cross_entropy(head(hidden.mean(dim=1)), target)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} seq_len {seq_len} loss {loss.item():.4f}")
