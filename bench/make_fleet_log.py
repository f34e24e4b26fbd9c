"""A frames-heavy log the size of a fleet's day: the real third-party corpus
(tests/corpus/logs, 34 scenarios on two torch versions) written again and
again, each copy under a pid of its own, so the log holds as many processes
as copies (one per 0.9 MB or so). Only the pid of each glog prefix changes;
payload lines (and so their md5s) are the corpus's own.

Usage: python3 bench/make_fleet_log.py SIZE_MB OUT

Measures memory against compiles (issue 22, goal 2):

    for mb in 64 256 1024; do python3 bench/make_fleet_log.py $mb /tmp/fleet$mb.log; done
    for mb in 64 256 1024; do
        /usr/bin/time -f "$mb MB: %e s, %M KB" target/release/guardscope summary /tmp/fleet$mb.log > /dev/null
        target/release/guardscope summary --json /tmp/fleet$mb.log | python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["compiles"], "compiles")'
    done
"""

import gzip
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The glog prefix up to the pid: `I1121 11:35:10.695000 2524 ...`.
PID = re.compile(rb"^([IWEVDF]\d{4} [\d:.]+\s+)(\d+)", re.M)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    target = int(sys.argv[1]) << 20
    logs = sorted((REPO / "tests" / "corpus" / "logs").rglob("*.log.gz"))
    if not logs:
        sys.exit("no corpus logs under tests/corpus/logs")
    texts = [gzip.open(p, "rb").read() for p in logs]
    size = copies = 0
    with open(sys.argv[2], "wb") as out:
        while size < target:
            pid = str(100000 + copies).encode()
            text = PID.sub(lambda m: m.group(1) + pid, texts[copies % len(texts)])
            out.write(text)
            size += len(text)
            copies += 1
    print(f"{sys.argv[2]}: {size / 1e6:.0f} MB, {copies} processes (copies of {len(texts)} corpus logs)")


if __name__ == "__main__":
    main()
