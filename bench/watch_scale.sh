#!/usr/bin/env bash
# What `guardscope watch` costs while a job of many ranks is idle: CPU (share
# of one core over a measured window), peak memory and open descriptors,
# with N idle logs (default 10,000) under the default open-file limit.
#   bench/watch_scale.sh [N] [SECONDS]
set -euo pipefail
n=${1:-10000}
secs=${2:-10}
bin=${GUARDSCOPE:-target/release/guardscope}
[ -x "$bin" ] || cargo build --release --quiet
dir=$(mktemp -d)
sleeper=; trap '[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null; rm -rf "$dir"' EXIT
line=$(zcat samples/traces/collision/dedicated_log_torch_trace.log.gz | head -n 1 || true)
for ((i = 0; i < n; i++)); do
  printf '%s\n' "$line" > "$dir/dedicated_log_torch_trace_rank_${i}_x.log"
done
sleep 3600 & sleeper=$!
echo "open-file limit: $(ulimit -n); logs: $n"
"$bin" watch --json --until-exit "$sleeper" "$dir" > /dev/null 2>&1 & pid=$!
sleep 5  # found every log, read each once
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); sleep "$secs"; t1=$(ticks)
cpu=$(awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$secs" 'BEGIN {printf "%.2f", 100 * d / hz / s}')
rss=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
fds=$(ls "/proc/$pid/fd" | wc -l)
threads=$(awk '/Threads/ {print $2}' "/proc/$pid/status")
kill "$sleeper"; wait "$pid" || true
echo "idle CPU: ${cpu}% of a core over ${secs} s; peak RSS: $((rss / 1024)) MB; open descriptors: $fds; threads: $threads"
