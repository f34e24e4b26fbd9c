"""Compiles once, then fails with exit code 3 (a script's own failure)."""

import sys

import torch


@torch.compile(backend="eager")
def scale(x):
    return x * 2


scale(torch.ones(4))
print("failing: exiting with 3", flush=True)
sys.exit(3)
