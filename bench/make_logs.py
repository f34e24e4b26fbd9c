"""Build the benchmark's large, real TORCH_TRACE logs (cached in bench/cache/).

Usage: .venv/bin/python bench/make_logs.py [--force] [--runs N] [--target-mb MB] [--layers N]

Runs bench/workload.py (an 8-block transformer under torch.compile with
backend="inductor" and many recompiles, training with backward) N times (4 by
default), each in its own process with TORCH_TRACE pointing at a fresh
directory, then writes into bench/cache/:

- trace_1run.log       the first run's log, unchanged (~50 MB)
- trace_{N}runs.log    the N runs' logs concatenated in run order (~200 MB).
                       Every run is a separate process, so each part carries
                       its own pid in the glog prefix
                       (`V1121 11:35:10.695000 <pid> file.py:N]`); nothing is
                       rewritten. This is what `cat rank*.log > all.log` of a
                       multi-process job looks like.
- both again as .gz    (gzip level 6, what `gzip FILE` writes)
- runs/runK.log, runs/runK.json   each run's log and its summary
- manifest.json        what was made: sizes, pids, compile counts, versions

Nothing here is written by hand: every byte of every log is torch's. Each run
gets an empty inductor cache directory (TORCHINDUCTOR_CACHE_DIR), so every run
really compiles (FX-graph-cache misses, C++ kernels built), like separate
ranks or jobs on fresh machines; sharing the cache would turn runs 2..N into
cache hits that log much less.

When the outputs exist (and were made with the same settings) nothing is
regenerated; --force regenerates everything. An interrupted generation resumes
at the first run whose log is missing.
"""

import argparse
import gzip
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CACHE = BENCH / "cache"
RUNS = CACHE / "runs"
WORKLOAD = BENCH / "workload.py"
MANIFEST = CACHE / "manifest.json"

# glog prefix of an envelope line: level+date, time, pid, file:line, "] ".
# Events counted by log_stats (envelope key, or artifact name).
EVENTS = (
    "dynamo_start",
    "compilation_metrics",
    "bwd_compilation_metrics",
    "recompile_reasons",
    "inductor_output_code",
)
GLOG = re.compile(rb"^[VIWEC]\d{4} \d\d:\d\d:\d\d\.\d+ +(\d+) [^\]]*\] ")


def log_stats(path):
    """Count what a TORCH_TRACE log holds, from its envelope lines only.

    Payload lines (TAB-prefixed) are skipped; each envelope is a JSON object
    whose first key names the event (or "artifact" with a name inside).
    """
    stats = {"bytes": 0, "payload_bytes": 0, "lines": 0, "pids": [], "unparsed_lines": 0}
    stats.update((event, 0) for event in EVENTS)
    pids = []
    with open(path, "rb") as f:
        for line in f:
            stats["bytes"] += len(line)
            stats["lines"] += 1
            if line.startswith(b"\t"):
                stats["payload_bytes"] += len(line)
                continue
            m = GLOG.match(line)
            if not m:
                stats["unparsed_lines"] += 1
                continue
            pid = int(m.group(1))
            if not pids or pids[-1] != pid:
                pids.append(pid)
            try:
                env = json.loads(line[m.end():])
            except ValueError:
                stats["unparsed_lines"] += 1
                continue
            if not isinstance(env, dict) or not env:
                continue
            kind = next(iter(env))
            if kind == "artifact":
                kind = (env["artifact"] or {}).get("name", "")
            if kind in EVENTS:
                stats[kind] += 1
    # Distinct pids in order of first appearance (one per run).
    stats["pids"] = list(dict.fromkeys(pids))
    return stats


def torch_version(python):
    out = subprocess.run(
        [python, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True
    )
    if out.returncode != 0:
        sys.exit(
            f"make_logs.py: torch is not importable by {python} (run me with the project's venv, "
            f".venv/bin/python, or use bench/run.sh):\n{out.stderr.strip()}"
        )
    return out.stdout.strip()


def run_workload(k, args):
    """Run workload.py once in a fresh process; keep its log as runs/run{k}.log."""
    log_path, info_path = RUNS / f"run{k}.log", RUNS / f"run{k}.json"
    with tempfile.TemporaryDirectory(prefix="guardscope-bench-") as tmp:
        trace_dir, cache_dir = Path(tmp, "trace"), Path(tmp, "inductor-cache")
        summary = Path(tmp, "summary.json")
        env = dict(
            os.environ,
            TORCH_TRACE=str(trace_dir),
            TORCHINDUCTOR_CACHE_DIR=str(cache_dir),
            PYTHONHASHSEED="0",
        )
        cmd = [
            sys.executable,
            str(WORKLOAD),
            "--target-mb",
            str(args.target_mb),
            "--layers",
            str(args.layers),
            "--summary",
            str(summary),
        ]
        print(f"[make_logs] run {k + 1}/{args.runs}: {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        code = subprocess.run(cmd, env=env, cwd=BENCH).returncode
        if code != 0:
            sys.exit(f"make_logs.py: run {k + 1} failed (exit {code}); its output is above")
        seconds = time.perf_counter() - t0
        logs = sorted(trace_dir.rglob("*.log"))
        if len(logs) != 1:
            sys.exit(f"make_logs.py: run {k} wrote {len(logs)} logs in {trace_dir}, expected 1")
        info = json.loads(summary.read_text())
        info["wall_seconds"] = round(seconds, 1)
        info["target_mb"] = args.target_mb
        tmp_log = log_path.with_suffix(".log.part")
        shutil.move(str(logs[0]), str(tmp_log))
        tmp_log.rename(log_path)
    info["log"] = log_stats(log_path)
    info_path.write_text(json.dumps(info, indent=2) + "\n")
    print(
        f"[make_logs] run {k + 1}: {info['log']['bytes'] / 1e6:.1f} MB, pid {info['pid']}, "
        f"{info['dynamo_compiles']} compiles, {seconds:.0f} s",
        flush=True,
    )
    return info


def concatenate(parts, target):
    """Write the parts one after another to target (via a temporary name)."""
    tmp = target.with_name(target.name + ".part")
    with open(tmp, "wb") as out:
        for part in parts:
            with open(part, "rb") as src:
                shutil.copyfileobj(src, out, 1 << 20)
    tmp.rename(target)


def gzip_copy(src, target):
    """gzip at level 6 (the gzip tool's default), mtime 0, no name."""
    tmp = target.with_name(target.name + ".part")
    with open(src, "rb") as f, open(tmp, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0, filename="") as gz:
            shutil.copyfileobj(f, gz, 1 << 20)
    tmp.rename(target)


def settings(args):
    return {"runs": args.runs, "target_mb": args.target_mb, "layers": args.layers}


def cached_manifest(args):
    """The manifest when every output it lists exists and settings match, else None."""
    if not MANIFEST.is_file():
        return None
    try:
        manifest = json.loads(MANIFEST.read_text())
    except ValueError:
        return None
    if manifest.get("settings") != settings(args):
        return None
    for log in manifest.get("logs", []):
        for key in ("path", "gz"):
            if not (BENCH.parent / log[key]).is_file():
                return None
    return manifest


def print_manifest(manifest):
    print(f"[make_logs] torch {manifest['torch']}; logs in {CACHE.relative_to(BENCH.parent)}/:")
    for log in manifest["logs"]:
        s = log["stats"]
        gz_mb = (BENCH.parent / log["gz"]).stat().st_size / 1e6
        print(
            f"  {log['path']:28s} {s['bytes'] / 1e6:7.1f} MB (.gz {gz_mb:5.1f} MB)  "
            f"{len(s['pids'])} pid(s) {s['pids']}  {s['dynamo_start']} dynamo compiles "
            f"({s['recompile_reasons']} recompiles), {s['compilation_metrics']} compilation_metrics, "
            f"{s['bwd_compilation_metrics']} backward, "
            f"{100 * s['payload_bytes'] / max(s['bytes'], 1):.0f}% payload bytes"
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--force", action="store_true", help="regenerate even if cached")
    ap.add_argument("--runs", type=int, default=4, help="runs concatenated into the big log (default 4)")
    ap.add_argument("--target-mb", type=float, default=50.0, help="size of each run's log (default 50)")
    ap.add_argument("--layers", type=int, default=8, help="transformer blocks (default 8)")
    args = ap.parse_args()
    if args.runs < 2:
        sys.exit("make_logs.py: --runs must be at least 2 (the big log concatenates runs)")

    if not args.force:
        manifest = cached_manifest(args)
        if manifest:
            print("[make_logs] cached (use --force to regenerate)")
            print_manifest(manifest)
            return
    version = torch_version(sys.executable)
    if args.force and CACHE.exists():
        for p in CACHE.glob("trace_*"):
            p.unlink()
        shutil.rmtree(RUNS, ignore_errors=True)
        MANIFEST.unlink(missing_ok=True)
    RUNS.mkdir(parents=True, exist_ok=True)

    infos = []
    for k in range(args.runs):
        info_path = RUNS / f"run{k}.json"
        if (RUNS / f"run{k}.log").is_file() and info_path.is_file():
            info = json.loads(info_path.read_text())
            same = (info.get("layers"), info.get("target_mb"), info.get("torch"))
            if same == (args.layers, args.target_mb, version):
                print(f"[make_logs] run {k + 1}/{args.runs}: cached, pid {info['pid']}", flush=True)
                infos.append(info)
                continue
        infos.append(run_workload(k, args))
        # Runs are separate processes, so their pids differ unless the kernel
        # wrapped around and reused one; then run again rather than rewrite it.
        earlier = {i["pid"] for i in infos[:-1]}
        attempts = 1
        while infos[-1]["pid"] in earlier:
            if attempts == 3:
                sys.exit(f"make_logs.py: run {k} got an already used pid {infos[-1]['pid']} three times")
            print(f"[make_logs] pid {infos[-1]['pid']} already used by an earlier run: running again")
            infos[-1] = run_workload(k, args)
            attempts += 1
    for k, info in enumerate(infos):
        if info["log"]["pids"] != [info["pid"]]:
            sys.exit(f"make_logs.py: runs/run{k}.log holds pids {info['log']['pids']}, expected [{info['pid']}]")

    parts = [RUNS / f"run{k}.log" for k in range(args.runs)]
    one, many = CACHE / "trace_1run.log", CACHE / f"trace_{args.runs}runs.log"
    t0 = time.perf_counter()
    print(f"[make_logs] writing {one.name}, {many.name} and their .gz", flush=True)
    concatenate(parts[:1], one)
    concatenate(parts, many)
    logs = []
    for path in (one, many):
        gz = path.with_name(path.name + ".gz")
        gzip_copy(path, gz)
        logs.append(
            {
                "path": str(path.relative_to(BENCH.parent)),
                "gz": str(gz.relative_to(BENCH.parent)),
                "runs": 1 if path == one else args.runs,
                "stats": log_stats(path),
            }
        )
    manifest = {
        "settings": settings(args),
        "torch": version,
        "python": platform.python_version(),
        "made": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        # Generation cost: every run's wall time plus concatenation and gzip.
        "seconds": round(sum(i["wall_seconds"] for i in infos) + time.perf_counter() - t0, 1),
        "runs": infos,
        "logs": logs,
    }
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"[make_logs] done: {manifest['seconds']:.0f} s of generation (runs + concatenation + gzip)")
    print_manifest(manifest)


if __name__ == "__main__":
    main()
