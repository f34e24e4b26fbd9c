"""What guardscope.StepLogger costs a training loop.

Usage: .venv/bin/python bench/step_overhead.py [--steps N] [--repeats R]

1. Per step, no compile: the logger's own cost is what begin() and end()
   take (nothing of it runs inside the step), timed around an empty body
   against an empty loop, median and best of R repeats, in microseconds.
   Then steps that run an already compiled function (aot_eager, 64x64
   matmul): the number of trace events torch sent to guardscope's handler
   during them (0: nothing on the compiled call's path), and their time
   with and without the logger (interleaved blocks; on a shared machine
   this difference is mostly noise, the begin/end figure is the measure).
2. Per compile: with the handler attached torch builds the payloads of its
   trace events (as TORCH_TRACE does). First compile (forward and backward)
   of samples/scripts' collision model with and without a StepLogger, in
   fresh processes, alternating, median of R each.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def per_step(steps, repeats):
    import torch

    import guardscope

    f = torch.compile(lambda a, b: (a @ b).relu(), backend="aot_eager")
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    f(a, b)
    tmp = tempfile.mkdtemp(prefix="guardscope-bench-")
    log = guardscope.StepLogger(os.path.join(tmp, "steps.jsonl"), warn=False)

    def plain():
        t0 = time.perf_counter()
        for _ in range(steps):
            f(a, b)
        return time.perf_counter() - t0

    def logged():
        t0 = time.perf_counter()
        for n in range(steps):
            with log.step(n):
                f(a, b)
        return time.perf_counter() - t0

    def empty_plain():
        t0 = time.perf_counter()
        for _ in range(steps):
            pass
        return time.perf_counter() - t0

    def empty_logged():
        t0 = time.perf_counter()
        for n in range(steps):
            log.begin(n)
            log.end()
        return time.perf_counter() - t0

    lines_before = log._log.lines
    diffs, empty = [], []
    for _ in range(repeats):
        diffs.append((logged() - plain()) / steps * 1e6)
        empty.append((empty_logged() - empty_plain()) / steps * 1e6)
    events = log._log.lines - lines_before
    log.close()
    return statistics.median(diffs), statistics.median(empty), min(empty), log.records, events


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
t0 = time.perf_counter()
compiled(tokens).sum().backward()
print(time.perf_counter() - t0)
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
    args = p.parse_args()
    compiled_diff, empty_med, empty_best, records, events = per_step(args.steps, args.repeats)
    print(f"per step without compiles ({args.steps} steps x {args.repeats} repeats, {records} records written):")
    print(f"  begin() + end(), the logger's own cost: {empty_med:.1f} us median, {empty_best:.1f} us best")
    print(f"  trace events during {2 * args.steps * args.repeats} steady-state compiled steps: {events}")
    print(f"  compiled step with vs without the logger: {compiled_diff:+.1f} us median (noise-prone)")
    plain, logged = first_compile(args.repeats)
    print(f"first compile (forward + backward) of the collision model, median of {args.repeats} processes each:")
    print(f"  without StepLogger {plain:.3f} s, with {logged:.3f} s ({100 * (logged / plain - 1):+.1f}%)")


if __name__ == "__main__":
    main()
