"""A run killed with SIGKILL in the middle of a compile.

`python killed_mid_compile.py [TRACE_DIR]` (default: $TORCH_TRACE, as under
`guardscope run`) starts this same script as a child
(`--child`) with TORCH_TRACE=TRACE_DIR, waits until its log holds at least
three finished compiles (two recompiles) and then a `dynamo_start` without
its `compilation_metrics` (a compile under way), and kills it with SIGKILL.
The log then ends on a whole line with a compile that never finished: what
the run would have done after it is not in the log. This script itself
exits 0, as a launcher whose worker was killed may.

The child recompiles at every step (a global string the compiled function
branches on changes), and each compile traces a long unrolled loop under
aot_eager, so it lasts long enough to be caught in the middle.
"""

import os
import signal
import subprocess
import sys
import time


def child():
    import torch

    torch._dynamo.config.recompile_limit = 64
    state = {"mode": "m0"}

    @torch.compile(backend="aot_eager")
    def step(x):
        for i in range(200):
            x = torch.sin(x) * 1.0001 + i
        if state["mode"] == "m0":
            return x
        return x * 2

    x = torch.ones(8)
    for n in range(40):
        state["mode"] = f"m{n}"
        step(x)
        print(f"step {n}", flush=True)


def counts(trace_dir):
    starts = metrics = 0
    for name in os.listdir(trace_dir):
        with open(os.path.join(trace_dir, name), "rb") as f:
            for line in f:
                if b'"dynamo_start"' in line:
                    starts += 1
                elif b'"compilation_metrics"' in line:
                    metrics += 1
    return starts, metrics


def main():
    trace_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ["TORCH_TRACE"]
    os.makedirs(trace_dir, exist_ok=True)
    env = dict(os.environ, TORCH_TRACE=trace_dir)
    proc = subprocess.Popen([sys.executable, __file__, "--child"], env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                sys.exit(f"the child exited ({proc.returncode}) before it was caught mid-compile")
            starts, metrics = counts(trace_dir)
            if metrics >= 3 and starts > metrics:
                # Mid-compile now: its dynamo_start is logged, its metrics are not.
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                starts, metrics = counts(trace_dir)
                print(f"killed: {starts} compiles started, {metrics} finished", flush=True)
                return
            time.sleep(0.05)
        sys.exit("no compile caught in the middle within 240 s")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    else:
        main()
