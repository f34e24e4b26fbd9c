"""Automatic dynamic shapes: the sequence length changes between calls.

A small MLP-plus-mixing function is compiled with backend="aot_eager" and
called (forward only, no_grad) with inputs of shape (4, L, 16) for
L = 8, 16, 24, 32, 8.

Expected: 0/0 is compiled for the static shape L=8; the L=16 call fails the
static size guard on x (size mismatch at index 1) and recompiles as 0/1 with L
marked dynamic; the L=24, 32 and 8 calls reuse 0/1 and do not recompile.
"""

import time

import torch

from _common import print_compile_summary, unique_graphs

torch.manual_seed(0)
proj_in = torch.nn.Linear(16, 32)
proj_out = torch.nn.Linear(32, 16)


@torch.compile(backend="aot_eager")
def mix(x):
    h = torch.relu(proj_in(x))
    # mean over the sequence dimension, broadcast back: uses x.size(1)
    h = h - h.sum(dim=1, keepdim=True) / x.size(1)
    return proj_out(h) + x


with torch.no_grad():
    for seq_len in (8, 16, 24, 32, 8):
        x = torch.randn(4, seq_len, 16)
        before = unique_graphs()
        t0 = time.perf_counter()
        mix(x)
        ms = (time.perf_counter() - t0) * 1000
        new = unique_graphs() - before
        print(f"[dynamic_shapes] seq_len {seq_len:2d}  {ms:8.1f} ms  new graphs {new}", flush=True)

print_compile_summary("dynamic_shapes")
