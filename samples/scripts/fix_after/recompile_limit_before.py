"""recompile_limit, before: ten blocks whose convolutions have dilations 1..10,
each compiled on its own with block.compile(): the blocks share one code
object, so each dilation is another entry of one cache, and the ninth hits
the recompile limit (8)."""
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
    block.compile(backend="aot_eager")
x = torch.randn(2, 4, 32)
with torch.no_grad():
    for block in blocks:
        x = block(x)
