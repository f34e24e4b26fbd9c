"""Activation hooks under CUDA graphs: what is recorded and what it costs.

A replayed CUDA graph runs no Python, so a hook traced into it would record
the warm-up step and nothing after. guardscope's op-mode hooks see the
request (``mode="reduce-overhead"``) while Dynamo traces them, warn once and
record as ``mode="disable"`` does. This runs that on a real GPU: the model of
``bench/hook_overhead.py`` compiled with ``mode="reduce-overhead"``, each
variant in its own process (so that one's cudagraph trees, warnings and
counters cannot reach another), and prints per variant

- records per step (every hooked module once per step is the promise;
  0 under ``fullgraph=True`` inside the graph, where no mode can record),
- the warnings guardscope's logger gave,
- Dynamo's graph count and graph breaks, inductor's cudagraph skips,
- whether the values are the step's own: each step's input is drawn
  afresh, so every (module, tensor) should record as many distinct
  sums as there were timed steps (a stale replay would record one),
- the median step time (``torch.cuda.synchronize()`` after each step).

    python bench/cudagraph_hooks.py --blocks 8 --steps 50
"""

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time

VARIANTS = (
    "no hooks",
    "reference hook",
    "guardscope mode=op",
    "guardscope mode=disable",
    "guardscope mode=op, fullgraph=True",
)


def child(args, name):
    import torch
    from torch._dynamo.utils import counters

    import guardscope

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import hook_overhead as ho

    warnings = []

    class Catch(logging.Handler):
        def emit(self, record):
            warnings.append(record.getMessage()[:160])

    logging.getLogger("guardscope").addHandler(Catch(level=logging.WARNING))
    torch.manual_seed(0)
    base = ho.Model(args.blocks, args.d_model, args.heads).eval()
    model = ho.variant_copy(base, args)
    x = torch.randn(args.batch, args.seq, args.d_model, device=args.device)
    stats = ["abs_mean", "sum"]
    sync = torch.cuda.synchronize if x.is_cuda else (lambda: None)
    xs = [torch.randn_like(x) for _ in range(args.warmup + args.steps)]
    with tempfile.TemporaryDirectory() as out:
        path = os.path.join(out, "ref.jsonl" if name == "reference hook" else "gs.jsonl")
        if name == "no hooks":
            trace = ho.NoTrace()
        elif name == "reference hook":
            trace = ho.ReferenceTrace(model, stats, path, compiled=True)
        else:
            mode = "disable" if "disable" in name else "op"
            trace = guardscope.trace_activations(model, stats=stats, output=path, mode=mode)
        compiled = torch.compile(model, mode="reduce-overhead", fullgraph="fullgraph" in name)
        times = []
        with torch.no_grad():
            for step in range(args.warmup):
                trace.set_step(step)
                compiled(xs[step])
            sync()
            before = trace.records
            for step in range(args.warmup, args.warmup + args.steps):
                trace.set_step(step)
                t0 = time.perf_counter()
                compiled(xs[step])
                sync()
                times.append(time.perf_counter() - t0)
            recorded = trace.records - before
        hooked = sum(len(m._forward_hooks) for m in model.modules())
        trace.close()
        sums = {}
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    r = json.loads(line)
                    if r.get("step", -1) >= args.warmup:
                        sums.setdefault((r["module"], r["tensor"]), set()).add(r["sum"])
        fresh = min((len(v) for v in sums.values()), default=0)
    print(
        json.dumps(
            {
                "hooked_modules": hooked,
                "records_per_step": recorded / args.steps,
                "fresh": fresh,
                "median_ms": statistics.median(times) * 1e3,
                "graphs": counters["stats"]["unique_graphs"],
                "graph_breaks": sum(counters["graph_break"].values()),
                "cudagraph_skips": counters["inductor"]["cudagraph_skips"],
                "warnings": sorted(set(warnings)),
            }
        )
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--d-model", type=int, default=256)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--device", default="cuda", help="cpu runs the same request where inductor skips CUDA graphs")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args, args.child)
        return
    import torch

    where = torch.cuda.get_device_name() if args.device.startswith("cuda") else args.device
    print(f"torch {torch.__version__}, {where}; {args.blocks} blocks, d_model {args.d_model}")
    print(
        "| hooks | hooked modules | records/step | distinct sums per tensor over the steps, fewest "
        "| graphs | graph breaks | cudagraph skips | median ms/step | warnings |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name in VARIANTS:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", name]
        for flag in ("blocks", "d_model", "heads", "batch", "seq", "steps", "warmup", "device"):
            cmd += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            print(f"| {name} | failed: {out.stderr.strip().splitlines()[-1:]} ||||||||", flush=True)
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"| {name} | {r['hooked_modules']} | {r['records_per_step']:g} | {r['fresh']} of {args.steps} "
            f"| {r['graphs']} | {r['graph_breaks']} "
            f"| {r['cudagraph_skips']} | {r['median_ms']:.2f} | {'; '.join(r['warnings']) or '-'} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
