"""Step-time overhead of guardscope's activation hooks against a reference
pure-Python hook, side by side in one run, eager and compiled (CPU).

The reference hook is written the way the activation-trace reference document
describes its ActivationStatHook: walk the output, one torch reduction and one
``.item()`` per stat on ``detach().float()``, one ``json.dumps`` line per
tensor to a line-buffered file. Under torch.compile it is wrapped in
``torch._dynamo.disable`` (the incident's fix; unwrapped, it would recompile
whenever its step changes).

Every variant hooks the same modules of a copy of the same model with the
same stats; the variants run in interleaved rounds so that machine noise
hits them alike, and the median step time is reported.

    python bench/hook_overhead.py                    # 24 blocks, d_model 256, all modules
    python bench/hook_overhead.py --stats abs_mean,sum,min,max,mean,std --rounds 5

On a GPU (``--device cuda``) the model and input live on the device, every
timed step ends with ``torch.cuda.synchronize()`` (so the wall time holds
the kernels; the CPU time is what the hooks cost the host), and the peak
memory also reads the CUDA allocator's high-water mark over the timed steps.

Peak memory: each variant also runs alone in a fresh process (the same
model and input), warmed up and compiled first; then the kernel's resident
high-water mark (VmHWM) is reset (``/proc/self/clear_refs``) and read again
after the timed steps. "step peak" is that mark minus the resident size
before the steps: what the steps added at their peak, torch's tensors and
everything else (tracemalloc would miss tensors; torch has no CPU allocator
statistics); glibc is told to map every allocation of 64 KiB or more on
its own, so that freed tensors leave the resident size. Linux only;
``--no-memory`` skips it.
"""

import argparse
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import types

import torch
import torch.nn.functional as F
from torch import nn

import guardscope


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    attention = Attention

    def __init__(self, d, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = self.attention(d, heads)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Model(nn.Module):
    block = Block

    def __init__(self, blocks, d, heads):
        super().__init__()
        self.blocks = nn.ModuleList(self.block(d, heads) for _ in range(blocks))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def own_code(cls, **attrs):
    """A subclass of `cls` whose forward has a code object of its own.

    Dynamo caches compiled code per code object, and with its default
    skip_nnmodule_hook_guards code compiled for a copy without hooks would be
    reused by a hooked copy (whose hooks would then never run). Giving every
    variant its own code objects keeps the variants' compiled code apart.
    """
    fn = cls.forward
    code = fn.__code__.replace(co_name=f"{fn.__name__}_{next(_variant_ids)}")
    forward = types.FunctionType(code, fn.__globals__, code.co_name, fn.__defaults__, fn.__closure__)
    return type(cls.__name__, (cls,), {"forward": forward, **attrs})


_variant_ids = itertools.count()


def variant_copy(base, args):
    attention = own_code(Attention)
    block = own_code(Block, attention=attention)
    model = own_code(Model, block=block)(args.blocks, args.d_model, args.heads).eval()
    model.load_state_dict(base.state_dict())
    return model.to(args.device)


# The reference: one reduction and one .item() per stat, json.dumps per tensor, line-buffered file.
def _ref_walk(obj, path="out"):
    if isinstance(obj, torch.Tensor):
        yield path, obj
    elif isinstance(obj, (tuple, list)):
        for i, item in enumerate(obj):
            yield from _ref_walk(item, f"{path}[{i}]")
    elif isinstance(obj, dict):
        for key, item in obj.items():
            yield from _ref_walk(item, f"{path}[{key!r}]")


class ReferenceTrace:
    def __init__(self, model, stats, path, compiled):
        self.file = open(path, "w", buffering=1)
        self.stats = stats
        self.step = 0
        self.handles = []
        for name, module in model.named_modules():
            hook = self._hook(name)
            self.handles.append(module.register_forward_hook(torch._dynamo.disable(hook) if compiled else hook))

    def _hook(self, name):
        def hook(module, inputs, output):
            for tensor_name, t in _ref_walk(output):
                x = t.detach().float()
                record = {"module": name, "tensor": tensor_name, "step": self.step}
                for stat in self.stats:
                    if stat == "abs_mean":
                        record[stat] = x.abs().mean().item()
                    elif stat == "sum":
                        record[stat] = x.sum().item()
                    elif stat == "min":
                        record[stat] = x.min().item()
                    elif stat == "max":
                        record[stat] = x.max().item()
                    elif stat == "mean":
                        record[stat] = x.mean().item()
                    elif stat == "std":
                        record[stat] = x.std().item()
                record["shape"] = list(x.shape)
                record["dtype"] = str(t.dtype)
                self.file.write(json.dumps(record) + "\n")

        return hook

    def set_step(self, step):
        self.step = step

    @property
    def records(self):
        self.file.flush()
        with open(self.file.name) as f:
            return sum(1 for _ in f)

    def close(self):
        for handle in self.handles:
            handle.remove()
        self.file.close()


class NoTrace:
    records = 0

    def set_step(self, step):
        pass

    def close(self):
        pass


def hook_count(model):
    return sum(len(m._forward_hooks) for m in model.modules())


def make_variants(base, args, stats, out_dir, compiled, only=None):
    variants = {}
    backend = args.backend

    def add(name, attach):
        if only is not None and name != only:
            return
        model = variant_copy(base, args)
        trace = attach(model)
        run = torch.compile(model, backend=backend) if compiled else model
        variants[name] = (run, trace, hook_count(model))

    def off(model):
        os.environ.pop("GUARDSCOPE_TRACE_ACTIVATIONS", None)
        return guardscope.attach_from_env(model) or NoTrace()

    add("no hooks", lambda m: NoTrace())
    add("tracing off (attach_from_env)", off)
    add("reference hook", lambda m: ReferenceTrace(m, stats, os.path.join(out_dir, "ref.jsonl"), compiled))
    for mode in ("op", "disable"):
        add(
            f"guardscope mode={mode}",
            lambda m, mode=mode: guardscope.trace_activations(
                m, stats=stats, output=os.path.join(out_dir, f"gs_{mode}.jsonl"), mode=mode
            ),
        )

    def disabled(model):
        trace = guardscope.trace_activations(model, stats=stats, output=os.path.join(out_dir, "gs_off.jsonl"))
        trace.disable()
        return trace

    add("guardscope mode=op, disable()d", disabled)
    return variants


def _sync(x):
    if x.is_cuda:
        torch.cuda.synchronize(x.device)


def measure(variants, x, warmup, rounds, steps):
    """Per variant: (wall median, CPU median, CPU min) per step, and records per step."""
    wall = {name: [] for name in variants}
    cpu = {name: [] for name in variants}
    records = {}
    step = 0
    with torch.no_grad():
        for name, (run, trace, _) in variants.items():
            t0 = time.perf_counter()
            for _ in range(warmup):
                trace.set_step(step)
                run(x)
            _sync(x)
            print(f"  warm-up {name}: {time.perf_counter() - t0:.1f} s", flush=True)
        for name, (_, trace, _) in variants.items():
            records[name] = trace.records
        for _ in range(rounds):
            for name, (run, trace, _) in variants.items():
                for _ in range(steps):
                    step += 1
                    trace.set_step(step)
                    w0, c0 = time.perf_counter(), time.process_time()
                    run(x)
                    _sync(x)
                    cpu[name].append(time.process_time() - c0)
                    wall[name].append(time.perf_counter() - w0)
    per_step = {name: (trace.records - records[name]) / (rounds * steps) for name, (_, trace, _) in variants.items()}
    return {
        name: (statistics.median(wall[name]), statistics.median(cpu[name]), min(cpu[name]), per_step[name])
        for name in variants
    }


def _status_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def memory_child(args, base, x, stats, compiled, name):
    """Runs one variant alone and prints its resident memory, in MiB."""
    with tempfile.TemporaryDirectory() as out_dir:
        variants = make_variants(base, args, stats, out_dir, compiled, only=name)
        [(run, trace, _)] = variants.values()
        with torch.no_grad():
            for step in range(args.warmup):
                trace.set_step(step)
                run(x)
            trace.set_step(args.warmup)
            _sync(x)
            if x.is_cuda:
                torch.cuda.reset_peak_memory_stats(x.device)
                gpu_before = torch.cuda.memory_allocated(x.device)
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # resets VmHWM to the current resident size
            before = _status_kib("VmRSS")
            for step in range(args.warmup + 1, args.warmup + 1 + args.steps):
                run(x)
                trace.set_step(step)
            _sync(x)
            peak = _status_kib("VmHWM")
            gpu_step_peak = (torch.cuda.max_memory_allocated(x.device) - gpu_before) / 2**20 if x.is_cuda else None
        trace.close()
    print(
        json.dumps(
            {
                "rss_before": before / 1024,
                "peak": peak / 1024,
                "step_peak": (peak - before) / 1024,
                "gpu_step_peak": gpu_step_peak,
            }
        )
    )


def memory_of(args, compiled, name):
    """Peak memory of one variant, measured in a fresh process."""
    cmd = [sys.executable, os.path.abspath(__file__), "--memory-child", name, "--compiled-child", str(int(compiled))]
    for flag in ("blocks", "d_model", "heads", "batch", "seq", "stats", "steps", "warmup", "backend", "threads", "device"):
        cmd += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    # Every allocation of 64 KiB or more gets pages of its own and returns
    # them when freed, so the resident size follows the live tensors instead
    # of what malloc's heap kept from earlier ones (without this, two runs of
    # the same variant differed by ~12 MiB here).
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", MALLOC_TRIM_THRESHOLD_="0")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _device_name(x):
    return f", {torch.cuda.get_device_name(x.device)}" if x.is_cuda else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blocks", type=int, default=24)
    parser.add_argument("--d-model", type=int, default=256)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--stats", default="abs_mean,sum")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=4, help="timed steps per variant per round")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--backend", default="inductor")
    parser.add_argument("--no-compiled", action="store_true")
    parser.add_argument("--device", default="cpu", help="where the model and input live (cpu, cuda, cuda:1, ...)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory processes")
    parser.add_argument("--memory-child", help=argparse.SUPPRESS)
    parser.add_argument("--compiled-child", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    torch.manual_seed(0)
    stats = [s for s in args.stats.split(",") if s]
    base = Model(args.blocks, args.d_model, args.heads).eval()
    x = torch.randn(args.batch, args.seq, args.d_model).to(args.device)
    if args.memory_child:
        memory_child(args, base, x, stats, bool(args.compiled_child), args.memory_child)
        return
    print(
        f"model: {args.blocks} blocks, d_model {args.d_model}, {len(list(base.modules()))} modules, "
        f"input {tuple(x.shape)}; stats {stats}; torch {torch.__version__}, {torch.get_num_threads()} threads, "
        f"{platform.machine()} {os.cpu_count()} CPUs{_device_name(x)}; best and median of {args.rounds}x{args.steps} steps",
        flush=True,
    )
    rows = []
    memory = {}
    with tempfile.TemporaryDirectory() as out_dir:
        for compiled in [False] if args.no_compiled else [False, True]:
            label = f"compiled ({args.backend})" if compiled else "eager"
            print(f"{label}:", flush=True)
            torch._dynamo.reset()
            variants = make_variants(base, args, stats, out_dir, compiled)
            medians = measure(variants, x, args.warmup, args.rounds, args.steps)
            for _, trace, _ in variants.values():
                trace.close()
            names = list(variants)
            for name, (_, _, hooks) in variants.items():
                rows.append((label, name, hooks, medians[name], medians["no hooks"], medians["reference hook"]))
            del variants
            if not args.no_memory:
                for name in names:
                    memory[(label, name)] = memory_of(args, compiled, name)
                    print(f"  peak memory {name}: {memory[(label, name)]}", flush=True)

    print()
    print(
        "| run | hooks | registered hooks | records/step | CPU ms/step, best / median | CPU overhead ms, best / median "
        "| ratio to reference, CPU best / median | wall ms/step, median | wall overhead ms | ratio, wall "
        "| step peak MiB (RSS) | peak minus reference's MiB | step peak MiB (GPU) | GPU peak minus reference's MiB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, name, hooks, (wall, cpu, best, recs), base, ref in rows:
        mem = memory.get((label, name))
        ref_mem = memory.get((label, "reference hook"))
        peak = "" if mem is None else f"{mem['step_peak']:.1f}"
        peak_ratio = "" if mem is None or ref_mem is None or name == "reference hook" else f"{mem['step_peak'] - ref_mem['step_peak']:+.1f}"
        gpu = "" if mem is None or mem.get("gpu_step_peak") is None else f"{mem['gpu_step_peak']:.1f}"
        gpu_ratio = (
            ""
            if not gpu or ref_mem is None or name == "reference hook"
            else f"{mem['gpu_step_peak'] - ref_mem['gpu_step_peak']:+.1f}"
        )
        over = ratio = wall_over = wall_ratio = ""
        if name != "no hooks":
            over_best, over_med, over_wall = (best - base[2]) * 1e3, (cpu - base[1]) * 1e3, (wall - base[0]) * 1e3
            over, wall_over = f"{over_best:+.1f} / {over_med:+.1f}", f"{over_wall:+.1f}"
            if name.startswith("guardscope"):
                ratio = f"{over_best / ((ref[2] - base[2]) * 1e3):.2f} / {over_med / ((ref[1] - base[1]) * 1e3):.2f}"
                wall_ratio = f"{over_wall / ((ref[0] - base[0]) * 1e3):.2f}"
        print(
            f"| {label} | {name} | {hooks} | {recs:g} | {best * 1e3:.1f} / {cpu * 1e3:.1f} | {over} | {ratio} "
            f"| {wall * 1e3:.1f} | {wall_over} | {wall_ratio} | {peak} | {peak_ratio} | {gpu} | {gpu_ratio} |"
        )


if __name__ == "__main__":
    main()
