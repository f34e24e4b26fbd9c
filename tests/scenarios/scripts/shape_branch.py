import torch
from torch import nn

torch.manual_seed(0)


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        scores = self.fc(x).squeeze(-1)
        if x.shape[0] > 16:
            # big batches: normalise scores across the batch
            scores = (scores - scores.mean()) / (scores.std() + 1e-5)
        return scores


model = Scorer()
compiled = torch.compile(model, backend="aot_eager")

for batch_size in [8, 12, 10, 20, 24]:
    x = torch.randn(batch_size, 16)
    with torch.no_grad():
        scores = compiled(x)
    print(f"batch {batch_size} top score {scores.max().item():.4f}")
