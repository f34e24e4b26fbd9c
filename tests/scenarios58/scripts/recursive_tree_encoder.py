import torch
import torch.nn as nn

torch.manual_seed(0)

DIM = 16


class TreeEncoder(nn.Module):
    """Encodes a nested tuple tree; leaves are (1, DIM) tensors."""

    def __init__(self):
        super().__init__()
        self.leaf = nn.Linear(DIM, DIM)
        self.combine = nn.Linear(2 * DIM, DIM)
        self.head = nn.Linear(DIM, 2)

    def encode(self, node):
        if isinstance(node, torch.Tensor):
            return torch.tanh(self.leaf(node))
        left, right = node
        h = torch.cat([self.encode(left), self.encode(right)], dim=-1)
        return torch.tanh(self.combine(h))

    def forward(self, tree):
        return self.head(self.encode(tree))


def leaf():
    return torch.randn(1, DIM)


def parse(shape):
    # shape is a nested list structure like [[0, 0], 0]
    if shape == 0:
        return leaf()
    return (parse(shape[0]), parse(shape[1]))


structures = [
    [0, 0],
    [0, 0],
    [[0, 0], 0],
    [0, 0],
    [[0, 0], [0, 0]],
    [[[0, 0], 0], 0],
    [0, 0],
]

model = TreeEncoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(2):
    total = 0.0
    for i, shape in enumerate(structures):
        tree = parse(shape)
        target = torch.tensor([i % 2])
        loss = nn.functional.cross_entropy(compiled(tree), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} mean loss {total / len(structures):.4f}")
