"""docs/fleet.md's DuckDB block, run as written over the NDJSON of many
real logs (`summary --format ndjson`), gives the culprit ranking and seconds
that `summary --json` gives for the same logs."""

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[2]
# The installed console script (built from this checkout by `make test`);
# GUARDSCOPE_CLI names another build, e.g. target/debug/guardscope.
CLI = os.environ.get("GUARDSCOPE_CLI") or str(Path(sys.executable).with_name("guardscope"))
DOC_GLOB = "fleet/**/*.ndjson"
DOC_WINDOW = "SET VARIABLE since = now() - INTERVAL 7 DAY;"


def cli(*args):
    out = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def real_log_dirs():
    """Each directory of committed real logs: the samples, and the torch 2.15
    corpus (the ranks of a DDP run among them)."""
    dirs = {p.parent for base in ("samples/traces", "tests/corpus/logs/torch2.15.0")
            for p in (ROOT / base).rglob("dedicated_log_torch_trace*.log*")}
    return sorted(dirs)


def documented_sql():
    text = (ROOT / "docs/fleet.md").read_text()
    [block] = re.findall(r"```sql\n(.*?)```", text, re.S)
    assert DOC_GLOB in block and DOC_WINDOW in block
    return block


def expected_culprits(dirs):
    """The recompiles of `summary --json`, log by log, summed by their
    cause's (category, culprit) across the fleet: a record's culprit is its
    own recompile's (a culprit group may merge several culprits of one
    cause, as a hook's flag and the list it fills)."""
    seconds, counts = defaultdict(float), defaultdict(int)
    for d in dirs:
        for r in json.loads(cli("summary", "--json", d))["recompiles"]:
            if r["cause"] is None:
                continue
            key = (r["cause"]["category"], r["cause"]["culprit"])
            seconds[key] += r["duration_s"] or 0.0
            counts[key] += 1
    return seconds, counts


def run_block(tmp_path, dirs, window):
    """The documented block, with the files' place for its glob and
    `window` for the one statement that depends on today's date."""
    for i, d in enumerate(dirs):
        host = tmp_path / "fleet" / f"host{i % 3}"
        host.mkdir(parents=True, exist_ok=True)
        (host / f"{d.name}.ndjson").write_text(cli("summary", "--format", "ndjson", d))
    sql = documented_sql().replace(DOC_GLOB, str(tmp_path / DOC_GLOB)).replace(DOC_WINDOW, window)
    con = duckdb.connect()
    *setup, query = [s for s in sql.split(";") if s.strip()]
    for s in setup:
        con.execute(s)
    return con.execute(query).fetchall(), con, query


def test_documented_query_ranks_culprits_as_summary_json_does(tmp_path):
    dirs = real_log_dirs()
    assert len(dirs) >= 40
    # The committed logs age: a window from before any of them, not from today.
    rows, con, query = run_block(tmp_path, dirs, "SET VARIABLE since = TIMESTAMP '2000-01-01';")
    seconds, counts = expected_culprits(dirs)
    ranking = sorted(seconds, key=lambda k: (-seconds[k], k))

    assert len(rows) == min(10, len(ranking))
    top_category, top_culprit, top_recompiles, top_runs, top_seconds = rows[0]
    assert (top_category, top_culprit) == ranking[0]
    assert abs(top_seconds - seconds[ranking[0]]) < 1e-6
    assert top_recompiles == counts[ranking[0]]
    assert top_runs >= 1
    for (category, culprit, recompiles, _, secs), key in zip(rows, ranking):
        assert (category, culprit) == key
        assert recompiles == counts[key]
        assert abs(secs - seconds[key]) < 1e-6

    # The window is live: from after the newest compile, nothing is left.
    newest = con.execute("SELECT max(start) FROM compiles").fetchone()[0]
    con.execute(f"SET VARIABLE since = to_timestamp({newest + 1})")
    assert con.execute(query).fetchall() == []


def test_the_view_reads_every_record_with_its_types(tmp_path):
    dirs = real_log_dirs()[:6]
    _, con, _ = run_block(tmp_path, dirs, "SET VARIABLE since = TIMESTAMP '2000-01-01';")
    lines = sum(len(cli("summary", "--format", "ndjson", d).splitlines()) for d in dirs)
    assert con.execute("SELECT count(*), min(schema), max(schema) FROM compiles").fetchone() == (lines, 1, 1)
    types = dict(con.execute("SELECT column_name, data_type FROM information_schema.columns "
                             "WHERE table_name = 'compiles'").fetchall())
    assert types["rank"] == "INTEGER" and types["seconds"] == "DOUBLE" and types["recompile"] == "BOOLEAN"
