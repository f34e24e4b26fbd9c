"""A run where most steps compile: every batch of the first nine steps has
a sequence length not seen before, and the model is compiled with
dynamic=False, so each of them recompiles (the recompile limit raised so
Dynamo keeps compiling). Steps 10-12 repeat lengths already compiled and
compile nothing: they are what a step costs.

samples/steps/generate.py runs it with GUARDSCOPE_STEPS set and keeps the
StepLogger records as samples/steps/mostly_compiling.jsonl: the median of
all steps there is itself a compile step, which is why `guardscope steps`
measures slowness against the steps that compiled nothing.
"""

import os

import torch
import torch._dynamo

import guardscope

LENGTHS = [8, 12, 16, 20, 24, 28, 32, 36, 40, 8, 12, 16]


def main() -> None:
    torch.manual_seed(0)
    torch._dynamo.config.recompile_limit = 64
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))
    compiled = torch.compile(model, backend="aot_eager", dynamic=False)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    log = guardscope.StepLogger(os.environ.get("GUARDSCOPE_STEPS", "mostly_compiling.jsonl"))
    for step, length in enumerate(LENGTHS, start=1):
        with log.step(step):
            x = torch.randn(4, length, 32)
            loss = compiled(x).pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad()


if __name__ == "__main__":
    main()
