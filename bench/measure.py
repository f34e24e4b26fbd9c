"""Time guardscope, tlparse and the I/O floor on the logs made by make_logs.py.

Usage: python bench/measure.py [--runs N] [--tlparse-full-runs N] [--tlparse PATH] [--out FILE]

Normally run by bench/run.sh, which builds guardscope, installs the newest
tlparse into bench/cache/tools and makes the logs first. For each log in
bench/cache/manifest.json (the 1-run log, the N-runs log, and the N-runs
log's .gz) every command runs --runs times (5) under `/usr/bin/time -v`,
interleaved: each round runs every command once (cat, guardscope, tlparse,
zcat side by side), so a burst of other work on the machine slows all of
them alike instead of one command's runs. The table shows the median wall
time, MB/s (the log's uncompressed size / median), and the highest peak RSS,
then the ratios to `cat` / `zcat` and to tlparse. The same markdown goes to
stdout and to bench/results.md, with the date, machine (cores, CPU model),
load average before and after, commit, and torch, tlparse and guardscope
versions.

Method, and why:
- The page cache is warmed by reading every log once first, so `cat` measures
  the read floor, not the disk; all commands see the same warm cache.
- Wall time is taken around the `/usr/bin/time -v` process with
  time.perf_counter (time's own 10 ms resolution is too coarse for `cat`);
  the wrapper adds about a millisecond. Peak RSS is time's "Maximum resident
  set size".
- stdout goes to /dev/null for every command (that is the `> /dev/null` of
  `cat` and `zcat`; a terminal summary would otherwise time the terminal).
- Every report/tlparse run writes into a fresh, not yet existing directory,
  deleted afterwards (untimed), so no run pays for deleting the last output.
- zcat is Debian's shell script that execs `gzip -cd`; time -v follows the
  exec, so its RSS is gzip's.
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
MANIFEST = BENCH / "cache" / "manifest.json"
GUARDSCOPE = REPO / "target" / "release" / "guardscope"
TIME = "/usr/bin/time"
# The targets, checked at the end of the table.
TARGET_VS_CAT = 3.0  # issue 22: within 3x of `cat` on one plain log
TARGET_RSS_BYTES = 64e6  # "peak RSS under 64 MB"
TARGET_GZ_VS_ZCAT = 0.5  # issue 22: under 0.5x `zcat`
TOOLS = BENCH / "cache" / "tools"
# Above this 1-minute load average (per core) before measuring, results.md says the figures are not for quoting.
BUSY_LOAD_PER_CORE = 0.25


def die(msg):
    sys.exit(f"measure.py: {msg}")


def tlparse_path(given):
    """--tlparse, else the one bench/run.sh installs (cargo install --root bench/cache/tools)."""
    path = Path(given) if given else TOOLS / "bin" / "tlparse"
    if not path.is_file():
        die(f"{path} is missing: bench/run.sh installs the newest tlparse there")
    return str(path)


def version_of(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


class Command:
    """One benchmarked command line; {out} is replaced by a fresh directory."""

    def __init__(self, label, argv, writes_dir=False, max_runs=None):
        self.label = label
        self.argv = argv
        self.writes_dir = writes_dir
        # Runs at most this many rounds (tlparse on the 1 GB fleet log).
        self.max_runs = max_runs


def fleet_commands(log, tlparse):
    """The commands timed on the fleet log: the floor, summary, report, and
    tlparse -p once (a minute per run on 1 GB)."""
    g = str(GUARDSCOPE)
    return [
        Command("cat FILE > /dev/null", ["cat", log]),
        Command("guardscope summary", [g, "summary", log]),
        Command("guardscope report -q", [g, "report", log, "-o", "{out}", "--overwrite", "-q"], True),
        Command("tlparse -p", [tlparse, log, "-o", "{out}", "--overwrite", "--no-browser", "-p"], True, 1),
    ]


def totals_of(log):
    """`summary --json`'s totals of a log: compiles (the memory table's unit), processes."""
    out = subprocess.run([str(GUARDSCOPE), "summary", "--json", log], capture_output=True, text=True)
    try:
        return json.loads(out.stdout)["totals"]
    except (ValueError, KeyError):
        die(f"guardscope summary --json {log} gave no totals: {out.stderr[-500:]}")


def commands_for(log, gz, tlparse, has_verify_all):
    """The commands timed on one input (a plain log, or its .gz when gz)."""
    g = str(GUARDSCOPE)
    cmds = []
    if gz:
        cmds.append(Command("zcat FILE.gz > /dev/null", ["zcat", log]))
    else:
        cmds.append(Command("cat FILE > /dev/null", ["cat", log]))
    cmds.append(Command("guardscope summary", [g, "summary", log]))
    if has_verify_all:
        cmds.append(Command("guardscope summary --verify-all", [g, "summary", "--verify-all", log]))
    cmds.append(
        Command("guardscope report -q", [g, "report", log, "-o", "{out}", "--overwrite", "-q"], True)
    )
    if not gz:  # tlparse reads plain files only
        base = [tlparse, log, "-o", "{out}", "--overwrite", "--no-browser"]
        cmds.append(Command("tlparse -p", base + ["-p"], True))
        cmds.append(Command("tlparse", base, True))
    return cmds


def run_once(cmd, scratch):
    """Run cmd once under /usr/bin/time -v: (seconds, peak RSS bytes, exit code, stderr tail)."""
    out_dir = Path(tempfile.mkdtemp(dir=scratch))
    out_dir.rmdir()  # the command creates it: a fresh, non-existing directory
    argv = [a.replace("{out}", str(out_dir)) for a in cmd.argv]
    time_file = Path(scratch, "time.txt")
    err_file = Path(scratch, "stderr.txt")
    with open(err_file, "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.run(
            [TIME, "-v", "-o", str(time_file)] + argv, stdout=subprocess.DEVNULL, stderr=err
        )
        seconds = time.perf_counter() - t0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", time_file.read_text())
    rss = int(m.group(1)) * 1024 if m else None
    tail = err_file.read_text(errors="replace")[-2000:]
    shutil.rmtree(out_dir, ignore_errors=True)
    return seconds, rss, proc.returncode, tail


def summarise(times, rss):
    return {
        "median": statistics.median(times),
        "min": min(times),
        "max": max(times),
        "rss": max(rss),
        "runs": len(times),
    }


def measure_interleaved(plan, runs, full_runs, scratch):
    """plan: [(input label, Command)]. Round r runs every command once, in
    plan order; full tlparse (slow) only in the first full_runs rounds. A
    command that fails is dropped from later rounds and reported as failed."""
    times = {key: [] for key in plan_keys(plan)}
    rss = {key: [] for key in plan_keys(plan)}
    failed = {}
    for r in range(runs):
        print(f"[measure] round {r + 1}/{runs}", file=sys.stderr, flush=True)
        for label, cmd in plan:
            key = (label, cmd.label)
            if key in failed or (cmd.label == "tlparse" and r >= full_runs):
                continue
            if cmd.max_runs is not None and r >= cmd.max_runs:
                continue
            seconds, peak, code, tail = run_once(cmd, scratch)
            if code != 0:
                print(f"[measure] {label}: {cmd.label} exited with {code}:\n{tail}", file=sys.stderr, flush=True)
                failed[key] = {"failed": code, "runs": len(times[key]) + 1}
                continue
            times[key].append(seconds)
            rss[key].append(peak or 0)
    return {key: failed.get(key) or summarise(times[key], rss[key]) for key in times}


def plan_keys(plan):
    return [(label, cmd.label) for label, cmd in plan]


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def loadavg():
    """1-minute load average (other work on the machine skews the timings)."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0


def mem_total():
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    except OSError:
        pass
    return "unknown"


def git_revision():
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    if rev.returncode != 0:
        return "unknown"
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", "src", "Cargo.toml", "Cargo.lock"],
        cwd=REPO,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return rev.stdout.strip() + (" (src modified)" if dirty else "")


def fmt_time(r):
    if "failed" in r:
        return f"failed (exit {r['failed']})"
    return f"{r['median']:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per command (median; default 5)")
    ap.add_argument(
        "--tlparse-full-runs", type=int, default=None, help="runs of full tlparse (default: --runs)"
    )
    ap.add_argument("--out", default=str(BENCH / "results.md"), help="markdown output (bench/results.md)")
    ap.add_argument("--tlparse", help="the tlparse binary (default: bench/cache/tools/bin/tlparse)")
    ap.add_argument("--fleet", help="a frames-heavy log made by bench/make_fleet_log.py (timed too, "
                    "and the memory table made)")
    args = ap.parse_args()
    full_runs = min(args.tlparse_full_runs or args.runs, args.runs)

    if not MANIFEST.is_file():
        die(f"{MANIFEST} is missing: run bench/make_logs.py (or bench/run.sh) first")
    manifest = json.loads(MANIFEST.read_text())
    if not GUARDSCOPE.is_file():
        die(f"{GUARDSCOPE} is missing: run `cargo build --release` (bench/run.sh does)")
    if not Path(TIME).is_file():
        die(f"{TIME} is missing: apt-get install time (bench/run.sh does)")
    for tool in ("cat", "zcat"):
        if not shutil.which(tool):
            die(f"{tool} is not on PATH")
    tlparse = tlparse_path(args.tlparse)
    has_verify_all = "--verify-all" in subprocess.run(
        [str(GUARDSCOPE), "summary", "--help"], capture_output=True, text=True
    ).stdout

    one, many = manifest["logs"][0], manifest["logs"][-1]
    inputs = [  # (label, path, uncompressed bytes, is gz)
        (f"{one['runs']} run", one["path"], one["stats"]["bytes"], False),
        (f"{many['runs']} runs", many["path"], many["stats"]["bytes"], False),
        (f"{many['runs']} runs .gz", many["gz"], many["stats"]["bytes"], True),
    ]
    fleet = None
    if args.fleet:
        fleet = (os.path.relpath(Path(args.fleet).resolve(), REPO), Path(args.fleet).stat().st_size)
    for _, path, _, _ in inputs + ([("fleet", fleet[0], 0, False)] if fleet else []):
        if not (REPO / path).is_file():
            die(f"{path} is missing: run bench/make_logs.py")
        with open(REPO / path, "rb") as f:  # warm the page cache
            while f.read(1 << 24):
                pass

    cores = os.cpu_count() or 1
    load_before = loadavg()
    busy = load_before > BUSY_LOAD_PER_CORE * cores
    if busy:
        print(f"[measure] warning: load average {load_before:.2f} before measuring: other processes "
              "are busy and will slow the timings", file=sys.stderr, flush=True)
    plan = [(label, cmd) for label, path, size, gz in inputs
            for cmd in commands_for(str(REPO / path), gz, tlparse, has_verify_all)]
    if fleet:
        plan += [("fleet", cmd) for cmd in fleet_commands(str(REPO / fleet[0]), tlparse)]
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="guardscope-bench-") as scratch:
        results = measure_interleaved(plan, args.runs, full_runs, scratch)
    seconds = time.perf_counter() - t_start
    load_after = loadavg()
    rows = []  # (input label, path, size bytes, is gz, command label, result)
    for label, path, size, gz in inputs:
        for cmd in commands_for(str(REPO / path), gz, tlparse, has_verify_all):
            rows.append((label, path, size, gz, cmd.label, results[(label, cmd.label)]))
    if fleet:
        for cmd in fleet_commands(str(REPO / fleet[0]), tlparse):
            rows.append(("fleet", fleet[0], fleet[1], False, cmd.label, results[("fleet", cmd.label)]))

    lines = []
    add = lines.append
    add("# guardscope benchmark results")
    add("")
    add(f"- Date: {time.strftime('%Y-%m-%d %H:%M %z')}")
    add(f"- Machine: {cores} cores (`nproc` = {version_of(['nproc'])}), {cpu_model()}, {mem_total()} RAM, "
        f"Linux {platform.release()}")
    add(f"- Commit: guardscope {git_revision()}, `target/release/guardscope` ({version_of([str(GUARDSCOPE), '--version'])})")
    add(f"- Tools: {version_of([tlparse, '--version'])} (crates.io, `cargo install tlparse`); "
        f"{version_of(['cat', '--version'])}; {version_of(['gzip', '--version'])} (`zcat`); "
        f"torch {manifest['torch']} (made the logs, {manifest['made']})")
    add(f"- Load: 1-minute load average {load_before:.2f} before, {load_after:.2f} after "
        f"(about 1 is this benchmark itself; more means other work shared the {cores} cores)")
    add(f"- Method: {args.runs} interleaved rounds (each round runs every command once, in table order; "
        f"full tlparse in the first {full_runs}); median; warm page cache; peak RSS = highest "
        "`/usr/bin/time -v` maximum resident set size of the runs; MB/s = uncompressed log MB (10^6 B) "
        f"/ median wall time. Measuring took {seconds:.0f} s.")
    if busy:
        add("")
        add(f"**Load was high** ({load_before:.2f} before measuring on {cores} cores): other work shared "
            "the machine, so these timings are slower and noisier than on a quiet one. Not figures to quote; "
            "re-run `bench/run.sh` on a quiet machine.")
    add("")
    add("Commands (FILE is the log; OUT a fresh directory each run):")
    add("")
    for cmd in commands_for("FILE", False, "tlparse", has_verify_all) + commands_for("FILE.gz", True, "", has_verify_all)[:1]:
        argv = [a.replace(str(GUARDSCOPE), "target/release/guardscope").replace("{out}", "OUT") for a in cmd.argv]
        add(f"- `{cmd.label}`: `{' '.join(argv)}`")
    add("- on the .gz, the guardscope commands run the same way with FILE.gz (tlparse reads no .gz)")
    add("")
    add("## Logs (`bench/make_logs.py`, real torch inductor runs)")
    add("")
    add("| file | MB | .gz MB | processes (pids) | dynamo compiles | recompiles | backward compiles |")
    add("|---|---:|---:|---|---:|---:|---:|")
    for log in manifest["logs"]:
        s = log["stats"]
        gz_mb = (REPO / log["gz"]).stat().st_size / 1e6
        add(f"| `{log['path']}` | {s['bytes'] / 1e6:.1f} | {gz_mb:.1f} | {len(s['pids'])} "
            f"({', '.join(map(str, s['pids']))}) | {s['dynamo_start']} | {s['recompile_reasons']} "
            f"| {s['bwd_compilation_metrics']} |")
    add("")
    add("## Timings")
    add("")
    add("| input | command | wall median (s) | min-max (s) | MB/s | peak RSS (MiB) |")
    add("|---|---|---:|---:|---:|---:|")
    for label, path, size, gz, cmd_label, r in rows:
        if "failed" in r:
            add(f"| {label} | `{cmd_label}` | {fmt_time(r)} | | | |")
            continue
        add(f"| {label} | `{cmd_label}` | {r['median']:.3f} | {r['min']:.3f}-{r['max']:.3f} "
            f"| {size / 1e6 / r['median']:.0f} | {r['rss'] / 2**20:.1f} |")
    add("")
    add("## Ratios (the issue's targets)")
    add("")
    add(f"Floor: guardscope's median over `cat`'s on a plain log (target <= {TARGET_VS_CAT:.0f}x), over "
        f"`zcat`'s on the .gz (target < {TARGET_GZ_VS_ZCAT}x). Speed-ups are tlparse's median over "
        "guardscope's (higher is better). Peak RSS target: under 64 MB (61.0 MiB).")
    add("")
    add("| input | command | time / `cat` or `zcat` | vs `tlparse -p` | vs `tlparse` | peak RSS |")
    add("|---|---|---|---|---|---|")

    def ratio(label, num, den):
        a, b = results.get((label, num)), results.get((label, den))
        if not a or not b or "failed" in a or "failed" in b:
            return None
        return a["median"] / b["median"]

    def verdict(ok):
        return "met" if ok else "NOT met"

    for label, path, size, gz, cmd_label, r in rows:
        if not cmd_label.startswith("guardscope") or "failed" in r:
            continue
        cells = []
        floor = "zcat FILE.gz > /dev/null" if gz else "cat FILE > /dev/null"
        x = ratio(label, cmd_label, floor)
        ok = x is not None and (x < TARGET_GZ_VS_ZCAT if gz else x <= TARGET_VS_CAT)
        # --verify-all is an extra row, not the targeted default
        mark = "" if "--verify-all" in cmd_label else f" ({verdict(ok)})"
        cells.append("" if x is None else f"{x:.2f}x{mark}")
        for tl in ("tlparse -p", "tlparse"):
            x = ratio(label, tl, cmd_label)
            cells.append("" if x is None else f"{x:.1f}x faster")
        cells.append(f"{r['rss'] / 2**20:.1f} MiB ({verdict(r['rss'] < TARGET_RSS_BYTES)})")
        add(f"| {label} | `{cmd_label}` | " + " | ".join(cells) + " |")
    add("")
    add("## Memory per compile (issue 22, goal 2)")
    add("")
    add("Peak RSS of `guardscope summary` against the compiles it holds (`totals.compiles` of "
        "`summary --json`). Per compile: the growth in RSS from the smallest plain input to each "
        "larger one over the growth in compiles, i.e. what one more compile keeps.")
    add("")
    add("| input | MB | processes | compiles | `summary` peak RSS (MiB) | KiB per compile (marginal) |")
    add("|---|---:|---:|---:|---:|---:|")
    plain = [(label, path, size) for label, path, size, gz in inputs if not gz]
    if fleet:
        plain.append(("fleet", fleet[0], fleet[1]))
    base = None
    for label, path, size in plain:
        r = results.get((label, "guardscope summary"))
        if not r or "failed" in r:
            continue
        totals = totals_of(str(REPO / path))
        compiles, processes = totals["compiles"], totals.get("processes", "")
        per = ""
        if base and compiles > base[0]:
            per = f"{(r['rss'] - base[1]) / (compiles - base[0]) / 1024:.1f}"
        base = base or (compiles, r["rss"])
        add(f"| {label} | {size / 1e6:.0f} | {processes} | {compiles} | {r['rss'] / 2**20:.1f} | {per} |")
    add("")
    text = "\n".join(lines)
    print(text)
    Path(args.out).write_text(text)
    print(f"[measure] wrote {os.path.relpath(args.out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
