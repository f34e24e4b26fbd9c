#!/usr/bin/env bash
# Memory per frame (issue 31, item 10): peak RSS and wall time of `summary`,
# `check`, `report` and `watch` on a log of N distinct frames that each
# compile once (bench/make_frames_log.py), what a fleet's merged logs look
# like to the model.
#
#   bench/frames_memory.sh [N] [RUNS]
#
# N defaults to 1,000,000 (a 552 MB log, cached in bench/cache/), RUNS to 1
# (the median of RUNS is printed). Peak RSS is /usr/bin/time's maximum
# resident set size (KiB); bytes a frame is (peak RSS - the same command's
# on a one-frame log) / N: the process's own baseline left out. `watch` follows the log until a process that lives one second has
# exited: what it keeps is what it holds for every frame it has finished.
# GUARDSCOPE picks the binary (default target/release/guardscope, built if
# missing); BASE names a second one, run interleaved with it, to compare.
# The file is cut into parts parsed on threads of their own on machines of
# 4+ cores (RAYON_NUM_THREADS sets the count): those parts' events wait
# for the builder, and the figures are then higher (docs/performance.md).
set -euo pipefail
n=${1:-1000000}
runs=${2:-1}
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
bin=${GUARDSCOPE:-target/release/guardscope}
[ -x "$bin" ] || cargo build --release --quiet
[ -x /usr/bin/time ] || { echo "bench/frames_memory.sh: needs GNU /usr/bin/time (apt-get install time)" >&2; exit 1; }
mkdir -p bench/cache
log=bench/cache/frames_$n.log
one=bench/cache/frames_1.log
[ -s "$log" ] || python3 bench/make_frames_log.py "$n" "$log"
[ -s "$one" ] || python3 bench/make_frames_log.py 1 "$one"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Prints "seconds KB" of one run of command $2 of binary $1 on log $3.
measure() {
  local b=$1 cmd=$2 input=$3 keeper=
  local args=("$cmd" "$input")
  case "$cmd" in
    report) rm -rf "$out/report"; args=(report -q -o "$out/report" "$input") ;;
    watch) sleep 1 & keeper=$!; args=(watch --json --until-exit "$keeper" "$input") ;;
  esac
  /usr/bin/time -f "%e %M" -o "$out/time" "$b" "${args[@]}" > /dev/null 2>&1 || true
  [ -z "$keeper" ] || wait "$keeper" 2>/dev/null || true
  cat "$out/time"
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

bins=("$bin")
[ -z "${BASE:-}" ] || bins+=("$BASE")
echo "frames: $n ($(du -mL "$log" | cut -f1) MB); runs: $runs; cores: $(nproc); load before: $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| binary | command | wall s | peak RSS KiB | bytes a frame |"
echo "|---|---|---:|---:|---:|"
for cmd in summary check report watch; do
  for b in "${bins[@]}"; do
    base_kb=$(measure "$b" "$cmd" "$one" | cut -d' ' -f2)
    : > "$out/walls"; : > "$out/kbs"
    for ((r = 0; r < runs; r++)); do
      read -r wall kb < <(measure "$b" "$cmd" "$log")
      echo "$wall" >> "$out/walls"; echo "$kb" >> "$out/kbs"
    done
    wall=$(median < "$out/walls"); kb=$(median < "$out/kbs")
    awk -v b="$b" -v c="$cmd" -v w="$wall" -v kb="$kb" -v base="$base_kb" -v n="$n" \
      'BEGIN {printf "| %s | %s | %.1f | %d | %.0f |\n", b, c, w, kb, (kb - base) * 1024 / n}'
  done
done
echo
echo "load after: $(cut -d' ' -f1 /proc/loadavg)"
