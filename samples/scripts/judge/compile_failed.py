"""compile_failed: a recompile whose own compile fails.

`fullgraph=True` and a flag that, once on, makes the compiled code print:
the first call compiles; the call with the flag on fails the guard on the
flag, and its compile raises (a graph break is an error under fullgraph),
so no entry is cached for it. The script catches the error and calls again
with the flag off, which reuses the first entry.
"""
import torch

torch.manual_seed(0)


def step(x, verbose):
    y = x * 2
    if verbose:
        print("step", y.sum())
    return y + 1


compiled = torch.compile(step, backend="aot_eager", fullgraph=True)
x = torch.randn(8, 4)
compiled(x, False)  # 0/0
try:
    compiled(x, True)  # 0/1: verbose == False fails; the compile raises
except Exception as e:  # noqa: BLE001 - the failure is what the sample records
    print("compile failed:", type(e).__name__)
compiled(x, False)  # reuses 0/0
