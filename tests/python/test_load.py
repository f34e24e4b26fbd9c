"""guardscope.load: the CLI's model in-process. Every committed real log is
loaded both ways, `guardscope.load(p)` and `python -m guardscope summary
--json p`, and the two must agree; the gate, the report and the notebook
views are compared with what the CLI prints and writes."""

import json
import os
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest

import guardscope

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for p in (ROOT / "samples/traces").iterdir() if p.is_dir())
CORPUS = sorted(p for p in (ROOT / "tests/corpus/logs/torch2.15.0").iterdir() if p.is_dir())
TWO_RUNS = ROOT / "tests/data/two_runs"
COLLISION = ROOT / "samples/traces/collision"
FIXED = ROOT / "samples/traces/collision_fixed"
KILLED = ROOT / "tests/data/killed_mid_compile"


def cli(*args):
    """The CLI as the console script runs it, on this interpreter's guardscope."""
    return subprocess.run(
        [sys.executable, "-m", "guardscope", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_COLOR": "1"},
    )


def summary_json(*args):
    out = cli("summary", "--json", "--quiet", *args)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def assert_agrees(run, doc):
    assert run.totals == guardscope.Totals(**doc["totals"])
    assert len(run.recompiles) == len(doc["recompiles"])
    for mine, theirs in zip(run.recompiles, doc["recompiles"]):
        assert (mine.rank, mine.frame_id, mine.compile_id, mine.severity) == (
            theirs["rank"],
            theirs["frame_id"],
            theirs["compile_id"],
            theirs["severity"],
        )
        assert mine.called_from == theirs["called_from"]
        cause = theirs["cause"]
        if cause is None:
            assert mine.cause is None and mine.advice is None
        else:
            assert mine.cause is not None
            assert (mine.cause.category, mine.cause.culprit, mine.cause.called_from, mine.cause.advice) == (
                cause["category"],
                cause["culprit"],
                cause["called_from"],
                cause["advice"],
            )
            assert mine.advice == cause["advice"]
    frames = [
        (f.rank, f.frame_id, f.function, f.file, f.line, f.pid, f.generation, f.run, [c.compile_id for c in f.compiles])
        for f in run.frames
    ]
    assert frames == [
        (
            f["rank"],
            f["frame_id"],
            f["function"],
            f["file"],
            f["line"],
            f["pid"],
            f["generation"],
            f["run"],
            [c["compile_id"] for c in f["compiles"]],
        )
        for f in doc["frames"]
    ]
    assert run.input_errors.count == doc["problems"]["count"]
    assert list(run.input_errors.first) == doc["problems"]["first"]
    assert dict(run.input_errors.by_kind) == doc["problems"]["by_kind"]
    # And the rest of the document, field for field.
    assert run.data == doc


@pytest.mark.parametrize("path", SAMPLES + CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_load_agrees_with_summary_json(path):
    assert_agrees(guardscope.load(path), summary_json(path))


def test_the_samples_and_corpus_hold_recompiles_to_compare():
    # The comparison above means little if the logs had nothing in them.
    counts = [len(guardscope.load(p).recompiles) for p in SAMPLES + CORPUS]
    assert len(counts) >= 30 and sum(counts) > 100, counts


@pytest.mark.parametrize(
    "kwargs, flags",
    [({}, []), ({"latest": True}, ["--latest"]), ({"run": 0}, ["--run", "0"]), ({"run": 1}, ["--run", "1"])],
    ids=["all", "latest", "run0", "run1"],
)
def test_run_selection_agrees_with_the_cli(kwargs, flags):
    run = guardscope.load(TWO_RUNS, **kwargs)
    assert_agrees(run, summary_json(TWO_RUNS, *flags))
    assert len(run.data["runs"]) == 2


def test_a_single_gz_file_loads_like_the_cli():
    [log] = sorted(TWO_RUNS.glob("*.log.gz"))[:1]
    run = guardscope.load(log)
    assert run.totals.compiles > 0
    assert_agrees(run, summary_json(log))


def test_several_paths_load_together():
    run = guardscope.load([COLLISION, FIXED])
    assert_agrees(run, summary_json(COLLISION, FIXED))


def cli_error(*args):
    out = cli("summary", "--quiet", *args)
    assert out.returncode == 2
    line = out.stderr.strip()
    assert line.startswith("guardscope: ") and "\n" not in line, out.stderr
    return line.removeprefix("guardscope: ")


def test_a_missing_path_raises_file_not_found_with_the_cli_message(tmp_path):
    missing = tmp_path / "missing"
    with pytest.raises(FileNotFoundError) as e:
        guardscope.load(missing)
    assert str(e.value) == cli_error(missing)


def test_a_file_that_is_not_a_log_raises_a_value_error_with_the_cli_message():
    not_a_log = ROOT / "Cargo.toml"
    with pytest.raises(guardscope.LoadError) as e:
        guardscope.load(not_a_log)
    assert isinstance(e.value, ValueError)
    assert str(e.value) == cli_error(not_a_log)
    assert "no TORCH_TRACE events" in str(e.value)


def test_a_run_the_logs_do_not_hold_raises_with_the_cli_message():
    with pytest.raises(guardscope.LoadError) as e:
        guardscope.load(TWO_RUNS, run=5)
    assert str(e.value) == cli_error(TWO_RUNS, "--run", "5")


def test_latest_and_run_together_are_refused():
    with pytest.raises(ValueError, match="pick one"):
        guardscope.load(TWO_RUNS, latest=True, run=0)


def check_cli(*args):
    return cli("check", "--quiet", *args)


@pytest.mark.parametrize(
    "path, kwargs, flags",
    [
        (FIXED, {"max_eager_frames": 1}, ["--max-eager-frames", "1"]),
        (FIXED, {}, []),
        (COLLISION, {}, []),
        (COLLISION, {"max_recompiles": 2}, ["--max-recompiles", "2"]),
        (
            COLLISION,
            {"allow": ["shape_lazy_buffer", "closure_hook_state"]},
            ["--allow", "shape_lazy_buffer", "--allow", "closure_hook_state"],
        ),
        (COLLISION, {"baseline": FIXED}, ["--baseline", FIXED]),
        (FIXED, {"baseline": COLLISION}, ["--baseline", COLLISION]),
        (
            FIXED,
            {"baseline": COLLISION, "max_eager_frames": 1, "max_new_graph_breaks": 1},
            ["--baseline", COLLISION, "--max-eager-frames", "1", "--max-new-graph-breaks", "1"],
        ),
        (
            FIXED,
            {"baseline": COLLISION, "max_eager_frames": 1, "max_new_graph_breaks": 1, "max_new_frames": 0},
            ["--baseline", COLLISION, "--max-eager-frames", "1", "--max-new-graph-breaks", "1", "--max-new-frames", "0"],
        ),
        (ROOT / "samples/traces/reasons", {}, []),
        # A real run killed with SIGKILL mid-compile: 3 recompiles read, the log not whole.
        (KILLED, {"max_recompiles": 5}, ["--max-recompiles", "5"]),
        (KILLED, {"max_recompiles": 5, "allow_unfinished": True}, ["--max-recompiles", "5", "--allow-unfinished"]),
    ],
    ids=[
        "pass",
        "eager",
        "fail",
        "budget",
        "allow",
        "baseline-fail",
        "baseline-eager",
        "baseline-pass",
        "new-frames",
        "reasons",
        "killed",
        "killed-allowed",
    ],
)
def test_check_agrees_with_the_cli_gate(path, kwargs, flags):
    if "baseline" in kwargs:
        kwargs = {**kwargs, "baseline": guardscope.load(kwargs["baseline"])}
    verdict = guardscope.load(path).check(**kwargs)
    out = check_cli(path, *flags)
    assert verdict.exit_code == out.returncode
    assert bool(verdict) == verdict.passed == (out.returncode == 0)
    assert str(verdict) == out.stdout
    # The verdict line is wrapped at the terminal's width.
    assert verdict.message in out.stdout.replace("\n  ", " ")
    doc = json.loads(check_cli(path, "--json", *flags).stdout)
    assert verdict.data == doc
    assert [o.compile_id for o in verdict.offending] == [o["compile_id"] for o in doc["offending"]]


def test_the_gate_cases_above_cover_both_verdicts():
    # collision_fixed's forward runs eagerly (Dynamo skipped it): a failure
    # unless tolerated.
    assert not guardscope.load(FIXED).check()
    assert guardscope.load(FIXED).check(max_eager_frames=1)
    killed = guardscope.load(KILLED).check(max_recompiles=5)
    assert not killed and killed.exit_code == 2 and killed.unread_inputs
    assert not guardscope.load(COLLISION).check()
    assert guardscope.load(COLLISION).check(baseline=guardscope.load(COLLISION))


def test_an_unknown_category_in_allow_is_refused():
    with pytest.raises(ValueError, match='unknown category "shape"'):
        guardscope.load(COLLISION).check(allow=["shape"])  # type: ignore[list-item]


def test_a_failing_verdict_shows_its_offending_recompiles_as_html():
    verdict = guardscope.load(COLLISION).check()
    page = verdict._repr_html_()
    assert verdict.message.startswith("FAIL: ") and f">{verdict.message}</p>" in page
    for o in verdict.offending:
        assert o.compile_id in page and o.category in page
    passed = guardscope.load(FIXED).check(max_eager_frames=1)
    assert passed.message.startswith("PASS: ") and f">{passed.message}</p>" in passed._repr_html_()


def test_report_writes_the_page_the_cli_writes(tmp_path):
    index = guardscope.load(COLLISION).report(tmp_path / "mine")
    assert index == tmp_path / "mine" / "index.html"
    out = cli("report", "--quiet", COLLISION, "-o", tmp_path / "cli")
    assert out.returncode == 0, out.stderr
    for name in ("index.html", "summary.json", "compile_trace.json"):
        assert (tmp_path / "mine" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_report_refuses_a_directory_with_files_unless_overwrite(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    run = guardscope.load(COLLISION)
    with pytest.raises(OSError):
        run.report(tmp_path)
    assert run.report(tmp_path, overwrite=True).is_file()


def test_repr_html_shows_the_verdict_and_the_fix_cards_of_the_report():
    run = guardscope.load(COLLISION)
    page = run._repr_html_()
    assert re.search('id="guardscope-[0-9]+-verdict"', page) and re.search('id="guardscope-[0-9]+-fixes"', page)
    assert page.count('class="card fix"') == len(run.data["culprits"]) == 2
    for r in run.recompiles:
        assert r.cause is not None
        assert r.cause.category in page
    # The page's styles are scoped to the fragment, not the notebook's body.
    style = page.split("</style>")[0]
    assert style.startswith('<div class="guardscope-notebook">\n<style>\n.guardscope-notebook {\n& {')
    assert ":root" not in style and '"Segoe UI"' in style and "&quot;" not in style
    # collision_fixed's disabled hooks sit inside forward's loop: Dynamo skips
    # forward, which runs eagerly; that is not "nothing to fix".
    fixed = guardscope.load(FIXED)._repr_html_()
    assert "Nothing to fix" not in fixed
    assert "<b>Not compiled:</b> forward (" in fixed and "is not compiled: it runs eagerly every call" in fixed


def test_repr_html_escapes_what_the_logs_hold():
    run = guardscope.load(ROOT / "samples/traces/reasons")
    page = run._repr_html_()
    # Guards are code: their quotes and comparisons arrive escaped.
    assert "if mode == &quot;add&quot;:" in page
    assert 'if mode == "add":' not in page
    assert "<script" not in page


def test_to_records_has_one_dict_per_compile_from_the_summary_document():
    run = guardscope.load(COLLISION)
    records = run.to_records()
    assert len(records) == run.totals.compiles
    compiles = [c for f in run.data["frames"] for c in f["compiles"]]
    for record, compile in zip(records, compiles):
        assert {k: record[k] for k in compile} == compile
    assert [r["compile_id"] for r in records if r["recompile"]] == [r.compile_id for r in run.recompiles]
    assert {r["category"] for r in records if r["recompile"]} == {"shape_lazy_buffer", "closure_hook_state"}
    json.dumps(records)  # plain data


def test_to_pandas_gives_the_records_as_a_data_frame():
    import pandas  # requirements-dev.txt

    run = guardscope.load(COLLISION)
    frame = run.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert len(frame) == run.totals.compiles
    assert list(frame["compile_id"]) == [r["compile_id"] for r in run.to_records()]


def test_to_pandas_without_pandas_says_how_to_install_it():
    # pandas blocked as if absent, in a fresh interpreter.
    code = textwrap.dedent(
        f"""
        import sys
        sys.modules["pandas"] = None
        import guardscope
        run = guardscope.load({str(COLLISION)!r})
        try:
            run.to_pandas()
        except ImportError as e:
            print("ImportError:", e)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ImportError: Run.to_pandas() needs pandas: pip install pandas"


def test_load_does_not_import_torch():
    code = f"import sys, guardscope; guardscope.load({str(COLLISION)!r}); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_reprs_say_what_a_run_holds():
    run = guardscope.load(COLLISION)
    # "problem" is a recompile that matters, as everywhere; lines the
    # reader could not take are input errors.
    assert repr(run) == "<guardscope.Run: 1 frame, 3 compiles, 2 recompiles (2 problems), 0 graph breaks, 0 input errors>"
    assert repr(run.frames[0]) == f"<Frame 0 forward at {run.frames[0].file}:117: 3 compiles>"
    assert "shape_lazy_buffer" in repr(run.recompiles[0])
    assert repr(run.check()).startswith("<Verdict failed: FAIL: 2 recompiles")


def test_damaged_lines_are_input_errors_and_problems_is_their_old_name():
    run = guardscope.load(ROOT / "tests/hostile/real_md5_mismatch.log")
    assert run.input_errors.count == 1 and run.input_errors.by_kind == {"md5_mismatch": 1}
    assert repr(run).endswith(", 1 input error>"), repr(run)
    assert "problem" not in repr(run).split("), ", 1)[1]
    with pytest.warns(DeprecationWarning, match="Run.input_errors"):
        assert run.problems is run.input_errors
    assert guardscope.Problems is guardscope.InputErrors


@pytest.mark.parametrize("path", [COLLISION, ROOT / "samples/traces/reasons", FIXED], ids=lambda p: p.name)
def test_repr_html_is_the_report_pages_own_verdict_and_fix_cards(path, tmp_path):
    run = guardscope.load(path)
    page = run.report(tmp_path / "out").read_text()
    shown = page[page.index('<section id="verdict"') : page.index('<section id="timeline">')]
    fragment = run._repr_html_()
    # The same cards, but for ids of its own and frame names without the
    # page's links to its Frames section (see the test below).
    fragment = re.sub(r'id="guardscope-\d+-', 'id="', fragment)
    shown = re.sub(r'<a href="#frame-[^"]*">([^<]*)</a>', r"\1", shown)
    shown = shown.replace("see Frames", "see Frames on the page run.report(DIR) writes")
    assert fragment[fragment.index('<section id="verdict"') :].removesuffix("</div>\n").strip() == shown.strip()


class _Anchors(HTMLParser):
    """Every id, and every link within the document (``href="#..."``)."""

    def __init__(self):
        super().__init__()
        self.ids, self.links = [], []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids.append(value)
            elif name == "href" and value.startswith("#"):
                self.links.append(value[1:])


def test_runs_shown_in_one_notebook_have_their_own_ids_and_no_dangling_links():
    # A notebook puts every displayed Run into one document; the reasons
    # sample has several frames, which the page's cards link to.
    runs = [guardscope.load(COLLISION), guardscope.load(ROOT / "samples/traces/reasons"), guardscope.load(COLLISION)]
    anchors = _Anchors()
    anchors.feed("".join(r._repr_html_() for r in runs) + runs[0]._repr_html_())
    assert len(anchors.ids) == 8, anchors.ids
    assert len(set(anchors.ids)) == len(anchors.ids), anchors.ids
    assert [link for link in anchors.links if link not in anchors.ids] == []
