import torch
from torch import nn

torch.manual_seed(0)


class MultiCropHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 16)

    def forward(self, crops):
        # one embedding per crop, averaged over all crops of the sample
        feats = [self.proj(c).mean(1) for c in crops]
        return torch.stack(feats).mean(0)


model = MultiCropHead()
compiled = torch.compile(model, backend="aot_eager")

# the augmentation draws 2 global crops plus a random number of local crops
num_local = [0, 1, 2, 3, 4, 5]
for step, n in enumerate(num_local):
    crops = [torch.randn(4, 9, 32) for _ in range(2 + n)]
    out = compiled(crops)
    loss = out.pow(2).mean()
    loss.backward()
    print(f"step {step} crops {len(crops)} loss {loss.item():.4f}")
