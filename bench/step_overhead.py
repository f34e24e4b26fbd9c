"""What guardscope.StepLogger costs a training loop.

Usage: .venv/bin/python bench/step_overhead.py [--steps N] [--repeats R]

1. Per step, no compile: the logger's own cost is what begin() and end()
   take (nothing of it runs inside the step), timed around an empty body
   against an empty loop, median and best of R repeats, in microseconds.
   Then steps that run an already compiled function (aot_eager, 64x64
   matmul) with and without the logger (paired, alternating order), and
   the number of trace events torch sent to guardscope's handler during
   them (0: nothing on the compiled call's path). With ``--device cuda``
   the matmul's tensors are on the GPU: the steps launch kernels without
   waiting for them (as a training loop does), and each timed loop ends
   with a synchronize. CPU time of the process
   with one torch thread, so that other jobs on the machine and idle
   spinning threads do not count.
2. Per compile: with the handler attached torch builds the payloads of its
   trace events (as TORCH_TRACE does). First compile (forward and backward)
   of samples/scripts' collision model with and without a StepLogger, in
   fresh processes, alternating, CPU time, median of R each.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def per_step(steps, repeats, device="cpu"):
    """Per-step cost in microseconds of CPU time (process_time: other jobs on
    a shared machine stretch wall time, not this process's CPU time), with
    one torch thread so that idle-spinning workers do not count."""
    import torch

    import guardscope

    torch.set_num_threads(1)
    f = torch.compile(lambda a, b: (a @ b).relu(), backend="aot_eager")
    a, b = torch.randn(64, 64, device=device), torch.randn(64, 64, device=device)
    f(a, b)
    sync = torch.cuda.synchronize if a.is_cuda else (lambda: None)
    tmp = tempfile.mkdtemp(prefix="guardscope-bench-")
    log = guardscope.StepLogger(os.path.join(tmp, "steps.jsonl"), warn=False)

    def timed(body):
        sync()
        t0 = time.process_time()
        body()
        sync()
        return (time.process_time() - t0) / steps * 1e6

    def plain():
        for _ in range(steps):
            f(a, b)

    def logged():
        for n in range(steps):
            with log.step(n):
                f(a, b)

    def empty_plain():
        for _ in range(steps):
            pass

    def empty_logged():
        for n in range(steps):
            log.begin(n)
            log.end()

    lines_before = log._log.lines
    compiled, empty = [], []
    for i in range(repeats):
        # Alternate the order so that warm-up and drift favour neither side.
        pairs = [(logged, plain), (empty_logged, empty_plain)]
        for (with_log, without), out in zip(pairs, (compiled, empty)):
            if i % 2:
                b_ = timed(without)
                a_ = timed(with_log)
            else:
                a_ = timed(with_log)
                b_ = timed(without)
            out.append((a_, b_))
    events = log._log.lines - lines_before
    log.close()
    return {
        "compiled_plain": statistics.median(b for _, b in compiled),
        "compiled_diff": statistics.median(a - b for a, b in compiled),
        "empty_diff": statistics.median(a - b for a, b in empty),
        "empty_best": min(a - b for a, b in empty),
        "records": log.records,
        "events": events,
    }


COMPILE_SCRIPT = r"""
import sys, time, torch
sys.path.insert(0, {scripts!r})
import _collision_model as cm
if {logged}:
    import guardscope
    log = guardscope.StepLogger({path!r}, warn=False)
torch.manual_seed(0)
model = cm.TinyDecoder(prematerialize_pos_enc=True)
compiled = torch.compile(model, backend="aot_eager")
tokens = torch.randint(0, cm.VOCAB, (cm.BATCH, cm.SEQ_LEN))
t0 = time.process_time()
compiled(tokens).sum().backward()
print(time.process_time() - t0)
"""


def first_compile(repeats):
    scripts = os.path.join(os.path.dirname(HERE), "samples", "scripts")
    times = {False: [], True: []}
    for _ in range(repeats):
        for logged in (False, True):
            with tempfile.TemporaryDirectory() as tmp:
                code = COMPILE_SCRIPT.format(scripts=scripts, logged=logged, path=os.path.join(tmp, "s.jsonl"))
                out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                times[logged].append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times[False]), statistics.median(times[True])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--device", default="cpu", help="where the compiled step's tensors live (cpu, cuda)")
    p.add_argument("--no-compile", action="store_true", help="skip the first-compile measurement")
    args = p.parse_args()
    import platform

    import torch

    gpu = f", {torch.cuda.get_device_name()}" if args.device.startswith("cuda") else ""
    print(
        f"torch {torch.__version__}, {platform.machine()}, {os.cpu_count()} CPUs{gpu}, "
        f"load average {os.getloadavg()[0]:.1f}; compiled step on {args.device}"
    )
    r = per_step(args.steps, args.repeats, args.device)
    print(f"per step without compiles ({args.steps} steps x {args.repeats} repeats, {r['records']} records; CPU time, 1 torch thread):")
    print(f"  begin() + end(), the logger's own cost: {r['empty_diff']:.1f} us median, {r['empty_best']:.1f} us best")
    print(
        f"  a compiled step ({r['compiled_plain']:.1f} us without the logger): "
        f"{r['compiled_diff']:+.1f} us with it (median of the paired differences)"
    )
    print(f"  trace events that reached guardscope's handler during {2 * args.steps * args.repeats} compiled steps: {r['events']}")
    if args.no_compile:
        return
    plain, logged = first_compile(args.repeats)
    print(f"first compile (forward + backward) of the collision model, CPU time, median of {args.repeats} processes each:")
    print(f"  without StepLogger {plain:.3f} s, with {logged:.3f} s ({100 * (logged / plain - 1):+.1f}%)")


if __name__ == "__main__":
    main()
