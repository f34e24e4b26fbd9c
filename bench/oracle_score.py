"""Scores guardscope's per-recompile judgement against the oracle's truth.

A truth record is matched to guardscope's recompile of the same compile id
in the same test, the i-th of that id to the i-th (torch._dynamo.reset()
restarts ids, so one test may hold 0/1 twice, in log order).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

FIELDS = ("category", "culprit", "severity", "fix", "line", "owner")


def truth_records(entry: dict, version: str) -> list[dict] | None:
    """The truth's recompiles for this torch (a `by_torch` list, keyed by
    "major.minor", replaces the default where the versions differ)."""
    mm = ".".join(version.split(".")[:2])
    by = entry.get("by_torch", {})
    return by[mm] if mm in by else entry.get("recompiles")


def short(path: str | None) -> str | None:
    if not path:
        return None
    file, _, line = path.rpartition(":")
    return f"{Path(file).name}:{line}"


def judge(t: dict, ours: dict) -> dict[str, tuple[bool, str, str]]:
    """Per field: (hit, what guardscope said, what the truth says)."""
    cause = ours.get("cause") or {}
    advice = cause.get("advice") or ""
    res: dict[str, tuple[bool, str, str]] = {}
    cat = cause.get("category")
    cats = t["category"] if isinstance(t["category"], list) else [t["category"]]
    res["category"] = (cat in cats, str(cat), " | ".join(cats))
    cul = cause.get("culprit") or ""
    alts = t["culprit"] if isinstance(t["culprit"], list) else [t["culprit"]]
    res["culprit"] = (
        any(re.search(rf"(?<!\w){re.escape(a)}(?!\w)", cul, re.I) for a in alts),
        cul,
        " | ".join(alts),
    )
    sev = ours.get("severity")
    ev = (ours.get("evidence") or {}).get("kind")
    res["severity"] = (sev == t["severity"], f"{sev} ({ev})", t["severity"])
    must = t.get("fix_must_contain") or []
    must_not = t.get("fix_must_not_contain") or []
    low = advice.lower()
    ok = (not must or any(m.lower() in low for m in must)) and not any(
        m.lower() in low for m in must_not
    )
    want = "any of " + " | ".join(must) + ("; none of " + " | ".join(must_not) if must_not else "")
    res["fix"] = (ok, advice, want)
    if t.get("line"):
        site = short((ours.get("user_line") or {}).get("site"))
        res["line"] = (site == t["line"], str(site), t["line"])
    if t.get("owner"):
        res["owner"] = (ours.get("owner") == t["owner"], str(ours.get("owner")), t["owner"])
    return res


def score(runs: list[dict], truth: dict, version: str) -> dict:
    hits: Counter = Counter()
    totals: Counter = Counter()
    misses: list[dict] = []
    listed: dict[str, list[str]] = {}
    unrecognised = {"recognised_false": 0, "form_unrecognised": 0, "recompiles": 0}
    extra: list[str] = []
    tests = truth["tests"]
    for r in runs:
        tid = r["test"]
        gs = r.get("guardscope")
        if r["outcome"] in ("skipped", "import_error", "timeout"):
            listed.setdefault(r["outcome"], []).append(tid)
            continue
        if isinstance(gs, str):
            listed.setdefault("guardscope_error", []).append(f"{tid}: {gs}")
            gs = {"recompiles": []}
        ours = gs.get("recompiles", [])
        for rc in ours:
            unrecognised["recompiles"] += 1
            cause = rc.get("cause") or {}
            unrecognised["recognised_false"] += cause.get("recognised") is False
            unrecognised["form_unrecognised"] += cause.get("form") == "unrecognised"
        entry = tests.get(tid)
        want = truth_records(entry, version) if entry else None
        if want is None:
            listed.setdefault("no_truth", []).append(f"{tid} ({len(ours)} recompiles)")
            continue
        if not want and not ours:
            listed.setdefault("no_recompile", []).append(tid)
            continue
        pool: dict[str, list[dict]] = {}
        for rc in ours:
            pool.setdefault(rc["compile_id"], []).append(rc)
        for t in want:
            cands = pool.get(t["compile_id"]) or []
            if not cands:
                for f in ("category", "culprit", "severity", "fix"):
                    totals[f] += 1
                misses.append({"test": tid, "compile_id": t["compile_id"],
                               "field": "missing", "ours": "no such recompile",
                               "truth": str(t["category"])})
                continue
            for f, (ok, said, true) in judge(t, cands.pop(0)).items():
                totals[f] += 1
                hits[f] += ok
                if not ok:
                    misses.append({"test": tid, "compile_id": t["compile_id"],
                                   "field": f, "ours": said, "truth": true})
        for cid, left in pool.items():
            extra += [f"{tid} {cid}" for _ in left]
    if r_fail := [r["test"] for r in runs if r["outcome"] == "failed"]:
        listed["test_failed"] = r_fail
    scores = {f: {"hit": hits[f], "of": totals[f]} for f in FIELDS if totals[f]}
    return {
        "torch": version,
        "scores": scores,
        "unrecognised": unrecognised,
        "listed": listed,
        "extra_recompiles": extra,
        "misses": misses,
        "text": render(version, scores, unrecognised, listed, extra, misses),
    }


def render(version, scores, unrecognised, listed, extra, misses) -> str:
    out = [f"torch {version}"]
    for f, s in scores.items():
        out.append(f"  {f:9} {s['hit']:3}/{s['of']:<3}")
    out.append(
        f"  recompiles scored by guardscope: {unrecognised['recompiles']}, "
        f"recognised:false {unrecognised['recognised_false']}, "
        f"form unrecognised {unrecognised['form_unrecognised']}"
    )
    for kind, tids in listed.items():
        out.append(f"  {kind} ({len(tids)}):")
        out += [f"    {t}" for t in tids]
    if extra:
        out.append(f"  recompiles without a truth record ({len(extra)}):")
        out += [f"    {e}" for e in extra]
    out.append(f"  misses ({len(misses)}):")
    for m in misses:
        name = m["test"].split("::")[-1]
        out.append(f"    {name} {m['compile_id']} {m['field']}: ours {m['ours']!r} / truth {m['truth']!r}")
    return "\n".join(out)
