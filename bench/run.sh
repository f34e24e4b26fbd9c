#!/usr/bin/env bash
# The benchmark of issues 8 and 22, in one command:
#
#   bench/run.sh [--force] [--runs N] [--tlparse-full-runs N] [--log-runs N] [--target-mb MB] [--fleet-mb MB]
#
# 1. checks the tools (cargo, make, gzip/zcat, /usr/bin/time: installed with
#    apt when missing, as root or through sudo);
# 2. installs the newest tlparse from crates.io (cargo install) into
#    bench/cache/tools, never ~/.cargo (PyPI's tlparse lags: 0.4.3 there
#    when crates.io had 0.4.8);
# 3. makes sure .venv exists with torch (the Makefile's own target, so a fresh
#    clone works), unless BENCH_PYTHON names a Python with torch;
# 4. builds target/release/guardscope of this checkout;
# 5. makes the large real TORCH_TRACE logs with bench/make_logs.py (cached in
#    bench/cache/; --force regenerates them; --log-runs and --target-mb are
#    its --runs and --target-mb; ~30 min the first time);
# 6. makes a frames-heavy "fleet" log of --fleet-mb MB (default 1024; 0: none)
#    from the real third-party corpus with bench/make_fleet_log.py, one
#    process per copy (cached in bench/cache/);
# 7. times cat, guardscope, tlparse and zcat with bench/measure.py, in
#    interleaved rounds (median of --runs, default 5; tlparse once on the
#    fleet log), and prints the tables (timings, ratios, memory per compile)
#    with the machine, load average, commit and versions, also written to
#    bench/results.md.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
PY="${BENCH_PYTHON:-$REPO/.venv/bin/python}"
TOOLS="$REPO/bench/cache/tools"

say() { echo "[bench] $*" >&2; }
die() { echo "bench/run.sh: $*" >&2; exit 1; }

MAKE_LOGS_ARGS=()
MEASURE_ARGS=()
FLEET_MB=1024
while [ $# -gt 0 ]; do
  case "$1" in
    --force) MAKE_LOGS_ARGS+=(--force); shift ;;
    --runs|--tlparse-full-runs)
      [ $# -ge 2 ] || die "$1 needs a number"
      MEASURE_ARGS+=("$1" "$2"); shift 2 ;;
    --fleet-mb)
      [ $# -ge 2 ] || die "$1 needs a number"
      FLEET_MB="$2"; shift 2 ;;
    --log-runs|--target-mb)
      [ $# -ge 2 ] || die "$1 needs a number"
      MAKE_LOGS_ARGS+=("${1/--log-runs/--runs}" "$2"); shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see bench/run.sh --help)" ;;
  esac
done

# Debian packages, installed only when missing.
apt_install() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "$1 is missing and I am not root: apt-get install $1"
    sudo=sudo
  fi
  command -v apt-get >/dev/null 2>&1 || die "$1 is missing (no apt-get here to install it)"
  say "installing Debian package $1"
  $sudo apt-get install -y -qq "$1" >/dev/null \
    || { $sudo apt-get update -qq && $sudo apt-get install -y -qq "$1" >/dev/null; } \
    || die "could not apt-get install $1"
}

command -v cargo >/dev/null 2>&1 || die "cargo is missing: install Rust (https://rustup.rs)"
command -v make >/dev/null 2>&1 || die "make is missing: apt-get install make"
command -v zcat >/dev/null 2>&1 || apt_install gzip
[ -x /usr/bin/time ] || apt_install time   # GNU time, for -v (peak RSS)

# The newest tlparse, in a place this script owns. cargo install is a no-op
# when the newest is already there; its build directory is a temporary one.
say "cargo install tlparse (newest) into bench/cache/tools"
if ! env -u CARGO_TARGET_DIR cargo install --quiet --locked tlparse --root "$TOOLS"; then
  [ -x "$TOOLS/bin/tlparse" ] || die "cargo install tlparse failed"
  say "warning: cargo install failed (offline?); timing the tlparse already in bench/cache/tools"
fi
say "$("$TOOLS/bin/tlparse" --version)"

if [ -z "${BENCH_PYTHON:-}" ]; then
  # The project's venv (Python, torch): created by the Makefile when missing;
  # a no-op when it is up to date.
  say "checking .venv (make .venv/.deps-installed)"
  make --no-print-directory -s .venv/.deps-installed
fi
[ -x "$PY" ] || die "$PY is missing"

say "cargo build --release"
cargo build --release --quiet --target-dir "$REPO/target" || die "cargo build --release failed"

say "making the logs (bench/make_logs.py; cached in bench/cache/)"
t0=$(date +%s)
"$PY" bench/make_logs.py ${MAKE_LOGS_ARGS[@]+"${MAKE_LOGS_ARGS[@]}"}
say "logs ready after $(( $(date +%s) - t0 )) s"

if [ "$FLEET_MB" != 0 ]; then
  FLEET="$REPO/bench/cache/fleet_${FLEET_MB}mb.log"
  if [ ! -f "$FLEET" ] || [[ " ${MAKE_LOGS_ARGS[*]-} " == *" --force "* ]]; then
    say "making the fleet log (bench/make_fleet_log.py $FLEET_MB)"
    "$PY" bench/make_fleet_log.py "$FLEET_MB" "$FLEET"
  fi
  MEASURE_ARGS+=(--fleet "$FLEET")
fi

say "measuring (bench/measure.py)"
t0=$(date +%s)
"$PY" bench/measure.py --tlparse "$TOOLS/bin/tlparse" ${MEASURE_ARGS[@]+"${MEASURE_ARGS[@]}"}
say "measured in $(( $(date +%s) - t0 )) s; table in bench/results.md"
