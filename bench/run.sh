#!/usr/bin/env bash
# The benchmark of issue 8, in one command:
#
#   bench/run.sh [--force] [--runs N] [--tlparse-full-runs N]
#
# 1. checks the tools (cargo, make, gzip/zcat, /usr/bin/time: installed with
#    apt when missing, as root or through sudo);
# 2. makes sure .venv exists with torch (the Makefile's own target, so a fresh
#    clone works) and holds tlparse (pinned, from PyPI);
# 3. builds target/release/guardscope of this checkout;
# 4. makes the large real TORCH_TRACE logs with bench/make_logs.py (cached in
#    bench/cache/; --force regenerates them; ~30 min the first time);
# 5. times everything with bench/measure.py (median of --runs, default 5) and
#    writes bench/results.md.
set -euo pipefail

TLPARSE_VERSION=0.4.3   # the version the issue's figures were taken with

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
PY="$REPO/.venv/bin/python"

say() { echo "[bench] $*" >&2; }
die() { echo "bench/run.sh: $*" >&2; exit 1; }

MAKE_LOGS_ARGS=()
MEASURE_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --force) MAKE_LOGS_ARGS+=(--force); shift ;;
    --runs|--tlparse-full-runs)
      [ $# -ge 2 ] || die "$1 needs a number"
      MEASURE_ARGS+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# The project's venv (Python, torch): created by the Makefile when missing;
# a no-op when it is up to date.
say "checking .venv (make .venv/.deps-installed)"
make --no-print-directory -s .venv/.deps-installed
[ -x "$PY" ] || die ".venv/bin/python is missing after make"

if [ "$("$REPO/.venv/bin/tlparse" --version 2>/dev/null)" != "tlparse $TLPARSE_VERSION" ]; then
  say "installing tlparse==$TLPARSE_VERSION into .venv"
  "$PY" -m pip install --quiet --disable-pip-version-check "tlparse==$TLPARSE_VERSION" \
    || die "pip install tlparse==$TLPARSE_VERSION failed"
fi

say "cargo build --release"
cargo build --release --quiet --target-dir "$REPO/target" || die "cargo build --release failed"

say "making the logs (bench/make_logs.py; cached in bench/cache/)"
t0=$(date +%s)
"$PY" bench/make_logs.py ${MAKE_LOGS_ARGS[@]+"${MAKE_LOGS_ARGS[@]}"}
say "logs ready after $(( $(date +%s) - t0 )) s"

say "measuring (bench/measure.py)"
t0=$(date +%s)
"$PY" bench/measure.py ${MEASURE_ARGS[@]+"${MEASURE_ARGS[@]}"}
say "measured in $(( $(date +%s) - t0 )) s; table in bench/results.md"
