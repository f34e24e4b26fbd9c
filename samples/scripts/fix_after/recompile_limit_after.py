"""recompile_limit, after: guardscope's fix for the before log applied: the limit
raised to the number of distinct values, torch.compile(..., recompile_limit=N)
(block.compile passes it on).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, dilation):
        super().__init__()
        self.conv = nn.Conv1d(4, 4, 3, dilation=dilation, padding=dilation)

    def forward(self, x):
        return x + torch.relu(self.conv(x))


blocks = [Block(d) for d in range(1, 11)]
for block in blocks:
    block.compile(backend="aot_eager", recompile_limit=10)
x = torch.randn(2, 4, 32)
with torch.no_grad():
    for block in blocks:
        x = block(x)
