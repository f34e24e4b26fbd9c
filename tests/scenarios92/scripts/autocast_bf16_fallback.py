"""Mixed-precision training that falls back to fp32 after a loss spike."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 8 * 8, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


model = ConvNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


@torch.compile(backend="aot_eager")
def forward_loss(x, y):
    return F.cross_entropy(model(x), y)


use_bf16 = True
history = []
for step in range(8):
    x = torch.randn(16, 3, 16, 16)
    y = torch.randint(0, 10, (16,))
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16):
        loss = forward_loss(x, y)
    opt.zero_grad()
    loss.float().backward()
    opt.step()
    history.append(loss.item())
    # a step that looks like a spike (here: forced at step 3) -> stay in fp32
    if use_bf16 and (step == 3 or loss.item() > 3 * min(history)):
        print("loss spike, disabling bf16 autocast")
        use_bf16 = False
    print(f"step {step} loss {loss.item():.4f} bf16={use_bf16}")
