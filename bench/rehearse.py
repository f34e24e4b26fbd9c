"""A rehearsal of a >= 1-billion-parameter model: 20 training steps over 5
batch shapes on meta, with time and peak memory printed (a measurement, not
a test; docs/rehearse.md quotes it).

    .venv/bin/python bench/rehearse.py [--layers 18] [--width 8192] [--steps 20]

The model is built on meta from the start (a real one would need 4.8 GB):
what a rehearsal needs is the structure, which ``to_meta`` copies from a
real model just as well.
"""

import argparse
import resource
import time

import torch
from torch import nn

import guardscope


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=18)
    parser.add_argument("--width", type=int, default=8192)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()

    with torch.device("meta"):
        model = nn.Sequential(*(nn.Sequential(nn.Linear(args.width, args.width), nn.GELU()) for _ in range(args.layers)))
    meta = guardscope.to_meta(model)
    params = sum(p.numel() for p in meta.parameters())
    compiled = torch.compile(meta)
    shapes = (32, 24, 48, 16, 7)

    def plan():
        for step in range(args.steps):
            x = torch.randn(shapes[step % len(shapes)], args.width, device="meta")
            compiled(x).sum().backward()

    parent_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.perf_counter()
    rehearsal = guardscope.rehearse(plan, verify_fixes=False)
    wall = time.perf_counter() - start
    start = time.perf_counter()
    with_fixes = guardscope.rehearse(plan)
    wall_fixes = time.perf_counter() - start
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    print(f"model: {args.layers} x Linear({args.width}, {args.width}) + GELU, {params / 1e9:.2f} B parameters on meta")
    print(f"plan: {args.steps} forward+backward steps over {len(set(shapes))} batch shapes {sorted(set(shapes))}")
    print(f"rehearsal: {rehearsal.seconds:.2f} s in the plan, {wall:.2f} s wall (fork, load and analysis included)")
    print(f"peak RSS: rehearsal process {rehearsal.peak_rss_bytes / 2**20:.0f} MiB, caller before it {parent_rss / 2**20:.0f} MiB")
    print(f"predicted: {rehearsal!r}")
    for r in rehearsal.recompiles:
        print(f"  {r.compile_id} {r.severity} {r.cause}")
    print(f"unseen: {list(rehearsal.unseen)}")
    print(f"with verify_fixes: {wall_fixes:.2f} s wall, {len(with_fixes.verified_fixes)} fix(es) replayed:")
    for fix in with_fixes.verified_fixes:
        print(f"  {fix}")


if __name__ == "__main__":
    main()
