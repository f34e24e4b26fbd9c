"""Throughput and peak memory of `guardscope diff` on ~1 GB activation traces.

Usage: python3 bench/diff_trace.py [--size-mb 1024] [--runs 3] [--force] [--no-gz]

Needs only the standard library, GNU /usr/bin/time and a release build
(`cargo build --release`; the script builds it when missing).

1. Makes synthetic traces in our JSONL format (cached in bench/cache/acts/,
   gitignored; --force regenerates): 40 modules, 4 stats
   (abs_mean, sum, max, std), shape and dtype, one record per module per step,
   as many steps as it takes for A to reach --size-mb:
   - a.jsonl       the reference
   - b_equal.jsonl A with every stat multiplied by (1 + up to 1e-4): equal
                   within the default tolerance, but every value is compared
                   in floating point (no bitwise shortcut)
   - b_div.jsonl   like b_equal, but module 20 is 5% off from the middle step
                   on and module 33 is renamed (one-sided on both sides)
   and, unless --no-gz, gzip -1 copies of a and b_equal.
2. Times `guardscope diff` on each pair --runs times (median wall, max peak
   RSS via /usr/bin/time -v) next to `cat A B > /dev/null`, and prints a
   markdown table. Throughput counts the bytes of both files (uncompressed).
"""

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / "bench" / "cache" / "acts"
BIN = REPO / "target" / "release" / "guardscope"
MODULES = [f"transformer.blocks.{i // 4}.{part}" for i, part in zip(range(40), ["attn", "mlp", "norm", "out"] * 10)]


def record(module, step, am, s, mx, sd):
    return (
        f'{{"module":"{module}","tensor":"out","step":{step},"abs_mean":{am!r},"sum":{s!r},'
        f'"max":{mx!r},"std":{sd!r},"shape":[1,4096,5120],"dtype":"torch.bfloat16","call":0}}\n'
    )


def generate(size_mb):
    CACHE.mkdir(parents=True, exist_ok=True)
    target = size_mb << 20
    rng = random.Random(0)
    # Steps needed, from the length of a typical line.
    line = len(record(MODULES[0], 12345, 0.8065909540908, -5.056557711213e-6, 3.12362122535, 1.00023842344))
    steps = target // (line * len(MODULES)) + 1
    paths = [CACHE / n for n in ("a.jsonl", "b_equal.jsonl", "b_div.jsonl")]
    files = [open(p, "w", buffering=1 << 20) for p in paths]
    for step in range(steps):
        chunks = ([], [], [])
        for m, module in enumerate(MODULES):
            am, s, mx, sd = rng.random(), rng.gauss(0, 100), 1 + 3 * rng.random(), 0.5 + rng.random()
            chunks[0].append(record(module, step, am, s, mx, sd))
            f = [1 + 1e-4 * rng.random() for _ in range(4)]
            noisy = (am * f[0], s * f[1], mx * f[2], sd * f[3])
            chunks[1].append(record(module, step, *noisy))
            if m == 20 and step >= steps // 2:
                noisy = tuple(v * 1.05 for v in noisy)
            name = module.replace("transformer.", "model.") if m == 33 else module
            chunks[2].append(record(name, step, *noisy))
        for f, c in zip(files, chunks):
            f.write("".join(c))
    for f in files:
        f.close()
    return paths


def gzip_copy(path):
    gz = path.with_suffix(".jsonl.gz")
    with open(gz, "wb") as out:
        subprocess.run(["gzip", "-1", "-c", str(path)], stdout=out, check=True)
    return gz


def timed(cmd, runs):
    """Median wall seconds, median CPU seconds (user + system) and max peak
    RSS (MiB) of `cmd` over `runs` runs."""
    walls, cpus, rss, code = [], [], [], None
    for _ in range(runs):
        p = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        code = p.returncode
        wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
        h, m, s = wall.groups()
        walls.append(int(h or 0) * 3600 + int(m) * 60 + float(s))
        rss.append(int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1)) / 1024)
        user = float(re.search(r"User time \(seconds\): ([\d.]+)", p.stderr).group(1))
        system = float(re.search(r"System time \(seconds\): ([\d.]+)", p.stderr).group(1))
        cpus.append(user + system)
    return statistics.median(walls), statistics.median(cpus), max(rss), code


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--no-gz", action="store_true")
    args = ap.parse_args()

    if not BIN.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=REPO, check=True)
    a, b_equal, b_div = (CACHE / n for n in ("a.jsonl", "b_equal.jsonl", "b_div.jsonl"))
    if args.force or not all(p.exists() for p in (a, b_equal, b_div)):
        print(f"generating ~{args.size_mb} MB traces in {CACHE} ...", file=sys.stderr)
        a, b_equal, b_div = generate(args.size_mb)
    pairs = [("equal within tolerance", a, b_equal), ("divergent + one-sided", a, b_div)]
    if not args.no_gz:
        gz = [p.with_suffix(".jsonl.gz") for p in (a, b_equal)]
        if args.force or not all(p.exists() for p in gz):
            print("gzipping ...", file=sys.stderr)
            gz = [gzip_copy(p) for p in (a, b_equal)]
        pairs.append(("equal, .gz inputs", *gz))

    size = lambda p: os.path.getsize(p)  # noqa: E731
    records = sum(1 for _ in open(a, "rb"))
    print(f"A: {a} ({size(a) / 1e6:.0f} MB, {records} records, {records // len(MODULES)} steps x {len(MODULES)} modules)")
    print(f"guardscope: {BIN}; {args.runs} runs each, medians, max peak RSS")
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)\n")
    print(
        "| inputs | command | exit | wall (s) | MB/s wall | CPU s (user+sys) | MB per CPU s "
        "| records/s wall | peak RSS (MiB) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    wall, cpu, rss, code = timed(["sh", "-c", f"cat {a} {b_equal} > /dev/null"], args.runs)
    total = size(a) + size(b_equal)
    print(f"| a + b_equal | `cat A B > /dev/null` | {code} | {wall:.2f} | {total / 1e6 / wall:.0f} | {cpu:.2f} | | | {rss:.1f} |")
    for label, x, y in pairs:
        wall, cpu, rss, code = timed([str(BIN), "diff", str(x), str(y)], args.runs)
        raw = size(a) * 2  # uncompressed bytes of both traces
        print(
            f"| {label} | `guardscope diff {x.name} {y.name}` | {code} | {wall:.2f} | {raw / 1e6 / wall:.0f} | "
            f"{cpu:.2f} | {raw / 1e6 / cpu:.0f} | {2 * records / wall / 1e6:.2f} M | {rss:.1f} |"
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
