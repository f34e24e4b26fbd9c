import torch
from torch import nn

torch.manual_seed(0)


class JaggedEncoder(nn.Module):
    """Encodes a batch of variable-length sequences without padding."""

    def __init__(self, dim=16, classes=3):
        super().__init__()
        self.proj = nn.Linear(dim, 32)
        self.head = nn.Linear(32, classes)

    def forward(self, seqs):
        h = torch.relu(self.proj(seqs))
        return self.head(h.mean(dim=1))


model = JaggedEncoder().eval()
compiled = torch.compile(model, backend="aot_eager")
# a session-scoring service: each request batch holds sessions of different lengths,
# packed as one jagged nested tensor instead of padding
for step, lengths in enumerate([[5, 9, 3], [7, 2, 6], [4, 4, 8, 1], [10, 3]]):
    seqs = torch.nested.nested_tensor([torch.randn(n, 16) for n in lengths], layout=torch.jagged)
    with torch.no_grad():
        scores = compiled(seqs)
    print(f"step {step} lengths {lengths} -> {scores.argmax(-1).tolist()}")
