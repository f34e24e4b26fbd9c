"""Graph breaks: one compiled function becomes several dynamo frames.

`Net.forward` contains two graph breaks:
- a data-dependent Python branch on `h.abs().mean().item()` (Tensor.item is a
  graph break unless capture_scalar_outputs is set);
- an explicit `torch._dynamo.graph_break()`.
Dynamo compiles the code before each break as a graph and resumes after it in
a new frame, `torch_dynamo_resume_in_forward_at_<line>`.

The code after the second break reads the module-level flag USE_RESIDUAL. The
script runs 3 forward/backward steps with USE_RESIDUAL = False, then flips it
to True for 2 more steps: the resume frame that reads the flag recompiles
(guard on G['USE_RESIDUAL']), the other frames do not.
"""

import time

import torch
import torch.nn as nn

from _common import print_compile_summary, unique_graphs

torch.manual_seed(0)
USE_RESIDUAL = False


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 32)

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        if h.abs().mean().item() > 0.5:  # graph break: Tensor.item()
            h = h * 0.5
        h = torch.relu(self.fc2(h))
        torch._dynamo.graph_break()  # graph break: explicit
        out = self.fc3(h)
        if USE_RESIDUAL:
            out = out + x
        return out


model = Net()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(1, 6):
    if step == 4:
        USE_RESIDUAL = True
    x = torch.randn(8, 32)
    before = unique_graphs()
    t0 = time.perf_counter()
    loss = compiled(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ms = (time.perf_counter() - t0) * 1000
    new = unique_graphs() - before
    print(
        f"[graph_breaks] step {step}  USE_RESIDUAL={USE_RESIDUAL}  {ms:8.1f} ms  new graphs {new}",
        flush=True,
    )

print_compile_summary("graph_breaks")
