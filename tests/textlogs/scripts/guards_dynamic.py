# TORCH_LOGS=recompiles,guards: every compile prints its guard set. The
# batch size changes once (the second compile makes it dynamic, so later
# sizes reuse it), then a global flag read in forward flips.
import torch
from torch import nn

torch.manual_seed(0)
SCALE = True


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        y = self.fc(x)
        return y * 2 if SCALE else y


model = Net()
compiled = torch.compile(model, backend="eager")
for n in [8, 8, 5, 3, 7]:
    compiled(torch.randn(n, 16)).sum().backward()
SCALE = False
compiled(torch.randn(4, 16)).sum().backward()
print("done")
