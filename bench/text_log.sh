#!/usr/bin/env bash
# Reading a job's stderr (a text log, TORCH_LOGS=recompiles): `summary` on
# a SIZE_MB log of which a few KB are Dynamo's lines (bench/make_job_log.py),
# against `cat` and `grep` on the same file, warm in the page cache. Prints
# wall seconds and peak RSS (GNU time's maximum resident set size) of each,
# the median of RUNS.
#
#   bench/text_log.sh [SIZE_MB] [RUNS]        (defaults 1024 and 3)
#
# GUARDSCOPE picks the binary (default target/release/guardscope, built if missing).
set -euo pipefail
size=${1:-1024}
runs=${2:-3}
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
bin=${GUARDSCOPE:-target/release/guardscope}
[ -x "$bin" ] || cargo build --release --quiet
[ -x /usr/bin/time ] || { echo "bench/text_log.sh: needs GNU /usr/bin/time (apt-get install time)" >&2; exit 1; }
mkdir -p bench/cache
log=bench/cache/job_${size}MB.err
[ -s "$log" ] || python3 bench/make_job_log.py "$size" "$log"
cat "$log" > /dev/null

# Prints "seconds KB" of one run of the command.
measure() {
  local f
  f=$(mktemp)
  /usr/bin/time -f '%e %M' -o "$f" "$@" > /dev/null 2>&1 || true
  tail -n 1 "$f"
  rm -f "$f"
}

median() { sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }

report() {
  local name=$1; shift
  local secs=() kbs=()
  for _ in $(seq "$runs"); do
    read -r s k < <(measure "$@")
    secs+=("$s"); kbs+=("$k")
  done
  printf '%-34s %8s s %10s KB\n' "$name" "$(printf '%s\n' "${secs[@]}" | median)" "$(printf '%s\n' "${kbs[@]}" | median)"
}

echo "$log: $(du -m "$log" | cut -f1) MB, $(grep -c '\[__recompiles\]' "$log") Dynamo lines"
report "cat" cat "$log"
report "grep -c __recompiles" grep -c __recompiles "$log"
report "grep -c -E 'ecompil|graph_break'" grep -c -E 'ecompil|graph_break' "$log"
report "guardscope summary" "$bin" summary -q "$log"
report "guardscope check" "$bin" check -q "$log"
