"""Recompiles five times while its log may grow only to GUARDSCOPE_TEST_FSIZE
bytes (RLIMIT_FSIZE), as on a disk that fills up: the write that crosses the
limit is cut where the limit falls, the rest is lost, and the script goes on
(Python ignores SIGXFSZ; logging reports the failed writes on stderr)."""

import os
import resource

import torch

limit = os.environ.get("GUARDSCOPE_TEST_FSIZE")
if limit:
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(limit), resource.RLIM_INFINITY))

SCALE = 0


@torch.compile(backend="eager")
def step(x):
    return x * SCALE


for SCALE in range(6):
    step(torch.ones(4))
print("full_disk: done", flush=True)
