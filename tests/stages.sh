#!/usr/bin/env bash
# The stage times of `make test`: each stage's recipe calls `start NAME`
# first and `end NAME` last; `table` prints them, with the stage that was
# running when make stopped (a failure) marked and timed up to now.
#
# Usage: tests/stages.sh reset | start NAME | end NAME | table
# The log is $STAGES_LOG (default target/stage-times.log): one
# "start|end NAME EPOCH_SECONDS" line each.
set -euo pipefail

log="${STAGES_LOG:-target/stage-times.log}"
now() { date +%s; }

case "${1:-}" in
    reset)
        mkdir -p "$(dirname "$log")"
        echo "start make-test $(now)" > "$log"
        ;;
    start | end)
        [ -n "${2:-}" ] || { echo "usage: $0 $1 NAME" >&2; exit 2; }
        mkdir -p "$(dirname "$log")"
        echo "$1 $2 $(now)" >> "$log"
        ;;
    table)
        [ -f "$log" ] || { echo "no stage times ($log)" >&2; exit 0; }
        awk -v now="$(now)" '
            function clock(s) { return sprintf("%d:%02d", int(s / 60), s % 60) }
            $1 == "start" && $2 == "make-test" { begin = $3; next }
            $1 == "start" { order[++n] = $2; started[$2] = $3 }
            $1 == "end" { ended[$2] = $3 }
            END {
                print ""
                printf "%-20s %8s %7s  %s\n", "stage", "seconds", "m:ss", "status"
                for (i = 1; i <= n; i++) {
                    s = order[i]
                    if (s in ended) { secs = ended[s] - started[s]; status = "ok" }
                    else { secs = now - started[s]; status = "FAILED (stopped here)" }
                    printf "%-20s %8d %7s  %s\n", s, secs, clock(secs), status
                }
                if (begin) {
                    printf "%-20s %8d %7s  %s\n", "total (make test)", now - begin, clock(now - begin), \
                        "wall clock, stages and what runs between them"
                }
            }' "$log"
        ;;
    *)
        echo "usage: $0 reset | start NAME | end NAME | table" >&2
        exit 2
        ;;
esac
