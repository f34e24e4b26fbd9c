"""StepLogger, no_recompiles and compile_events against real torch.compile.

The collision scenario is samples/scripts/collision.py (the incident at small
scale): frame 0 compiles at step 1, recompiles at step 2 (pos_enc_cache grown
in forward) and at step 12 (a forward hook's closure reads a flag turned on at
that step). collision_fixed applies both fixes and never recompiles.
"""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

import guardscope
from conftest import read_jsonl

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "samples" / "scripts"


def collision(fixed=False):
    """A fresh collision model and its collector, hooks installed."""
    import torch

    sys.path.insert(0, str(SCRIPTS))
    try:
        import _collision_model as cm
    finally:
        sys.path.remove(str(SCRIPTS))
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = cm.TinyDecoder(prematerialize_pos_enc=fixed)
    collector = cm.MetricsCollector(cm.N_HEADS)
    cm.register_forward_metric_hooks(model, collector, hook_decorator=torch._dynamo.disable if fixed else None)
    return cm, model, collector


def run_collision(steps_log=None, fixed=False, on_step=None):
    cm, model, collector = collision(fixed)
    import torch
    import torch.nn.functional as F

    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    gen = torch.Generator().manual_seed(0)
    for step in range(1, cm.STEPS + 1):
        if steps_log is not None:
            steps_log.begin(step)
        if on_step is not None:
            on_step(step)
        tokens = torch.randint(0, cm.VOCAB, (cm.BATCH, cm.SEQ_LEN + 1), generator=gen)
        collector.set_cadence(step == cm.COLLISION_STEP)
        logits = compiled(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, cm.VOCAB), tokens[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        collector.drain()
        if steps_log is not None:
            steps_log.end()


@pytest.fixture(scope="module")
def collision_steps(tmp_path_factory):
    """The collision run's step records and the warnings logged meanwhile."""
    path = tmp_path_factory.mktemp("steps") / "steps_<pid>.jsonl"
    warnings = []

    class Collect(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.WARNING:
                warnings.append(record.getMessage())

    handler = Collect()
    logging.getLogger("guardscope").addHandler(handler)
    try:
        log = guardscope.StepLogger(path)
        run_collision(log)
        log.close()
    finally:
        logging.getLogger("guardscope").removeHandler(handler)
    return log.path, read_jsonl(log.path), warnings


def test_collision_records_compiles_in_steps_1_2_and_12_only(collision_steps):
    path, records, _ = collision_steps
    assert str(os.getpid()) in path
    assert [r["step"] for r in records] == list(range(1, 17))
    by_step = {r["step"]: r for r in records}
    assert [c["compile_id"] for c in by_step[1]["compiles"]] == ["0/0"]
    assert [c["compile_id"] for c in by_step[2]["compiles"]] == ["0/1"]
    assert [c["compile_id"] for c in by_step[12]["compiles"]] == ["0/2"]
    for step, record in by_step.items():
        if step not in (1, 2, 12):
            assert record["compiles"] == [], step
            assert record["recompiles"] == 0 and record["compile_s"] == 0
            assert record["counters"] == {"frames_total": 0, "frames_ok": 0, "unique_graphs": 0, "graph_breaks": 0}

    first = by_step[1]["compiles"][0]
    assert first["recompile"] is False and first["cause"] is None
    assert first["function"] == "forward" and first["file"].endswith("_collision_model.py")
    assert first["seconds"] > 0 and first["backward_seconds"] > 0
    assert by_step[1]["counters"]["unique_graphs"] == 1

    lazy = by_step[2]["compiles"][0]["cause"]
    assert lazy["category"] == "shape_lazy_buffer"
    assert lazy["culprit"] == "pos_encoding.pos_enc_cache (buffer)"
    assert lazy["source"].endswith("_collision_model.py:59")

    hook = by_step[12]["compiles"][0]
    assert hook["recompile"] is True and not hook["failed"] and hook["finished"]
    assert hook["cause"]["category"] == "closure_hook_state"
    assert hook["cause"]["culprit"] == "collector.capture_activation_norms"
    assert hook["cause"]["source"].endswith("_collision_model.py:180")
    assert by_step[12]["recompiles"] == 1
    assert by_step[12]["compile_s"] == pytest.approx(hook["seconds"] + hook["backward_seconds"], abs=1e-5)
    assert by_step[12]["wall_ms"] > 1000 * hook["seconds"]


def test_a_recompiling_step_logs_one_warning_with_frame_cause_and_time(collision_steps):
    _, _, warnings = collision_steps
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith("step 2 recompiled: 0/1 TinyDecoder.forward (_collision_model.py:")
    assert "pos_encoding.pos_enc_cache (buffer) at " in warnings[0]
    assert warnings[1].startswith("step 12 recompiled: 0/2 TinyDecoder.forward (_collision_model.py:")
    assert " s: forward-hook closure state: collector.capture_activation_norms at " in warnings[1]
    # The guard's line, then the user's call into the compiled model (this
    # test's own loop), both whole paths shown relative to the cwd.
    assert "_collision_model.py:180 (called from " in warnings[1]
    # Then the judgement: the hook's flag is state the code changes as it runs.
    assert warnings[1].endswith("test_steps.py:57) [problem: hidden state]"), warnings[1]


def test_cli_steps_reads_the_records_and_names_step_12(collision_steps, capfd):
    path, _, _ = collision_steps
    assert guardscope.main(["steps", path]) == 0
    out = capfd.readouterr().out
    assert "collector.capture_activation_norms" in out
    assert any(line.split()[:1] == ["12"] for line in out.splitlines())


def test_warn_false_is_silent(tmp_path, torch, caplog):
    log = guardscope.StepLogger(tmp_path / "s.jsonl", warn=False)
    f = torch.compile(lambda x, n: x * n, backend="aot_eager", dynamic=False)
    x = torch.ones(3)
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        for step in range(3):
            with log.step(step):
                f(x, step)
    log.close()
    assert caplog.records == []
    records = read_jsonl(tmp_path / "s.jsonl")
    assert [r["recompiles"] for r in records] == [0, 1, 1]


RECOMPILING_STEPS = """
import logging, sys
import torch
import guardscope

if sys.argv[2] == "configured":
    logging.basicConfig()
log = guardscope.StepLogger(sys.argv[1])
f = torch.compile(lambda x: x * 2, backend="eager", dynamic=False)
for step, n in enumerate((2, 3)):
    with log.step(step):
        f(torch.ones(n))
"""


@pytest.mark.parametrize("logging_setup", ["none", "configured"])
def test_a_steps_warning_names_guardscope_when_no_logging_is_configured(tmp_path, logging_setup):
    # Python's last resort would print the bare message; a configured
    # handler shows the logger's name itself, so it gets the record unchanged.
    out = subprocess.run(
        [sys.executable, "-c", RECOMPILING_STEPS, str(tmp_path / "s.jsonl"), logging_setup],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    warned = [line for line in out.stderr.splitlines() if "step 1 recompiled: 0/1 " in line]
    expected = "guardscope: step 1 recompiled: " if logging_setup == "none" else "WARNING:guardscope:step 1 recompiled: "
    assert len(warned) == 1 and warned[0].startswith(expected), out.stderr


FULLGRAPH_SCALE = 1


def scaled(x):
    return torch_sin(x) * FULLGRAPH_SCALE


def torch_sin(x):
    return x.sin()


def test_fullgraph_recompile_on_a_changing_python_constant_is_recorded(tmp_path, torch):
    global FULLGRAPH_SCALE
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    f = torch.compile(scaled, backend="aot_eager", fullgraph=True)
    x = torch.randn(8)
    log = guardscope.StepLogger(tmp_path / "fg.jsonl", warn=False)
    try:
        for step in range(6):
            FULLGRAPH_SCALE = 2 if step >= 3 else 1
            with log.step(step):
                assert torch.equal(f(x), x.sin() * FULLGRAPH_SCALE)
    finally:
        FULLGRAPH_SCALE = 1
        log.close()
    records = read_jsonl(tmp_path / "fg.jsonl")
    assert [len(r["compiles"]) for r in records] == [1, 0, 0, 1, 0, 0]
    recompile = records[3]["compiles"][0]
    assert recompile["compile_id"] == "0/1" and recompile["function"] == "scaled"
    assert recompile["cause"]["category"] == "global_var"
    assert recompile["cause"]["culprit"] == "global FULLGRAPH_SCALE"
    assert records[3]["graph_breaks"] == 0
    # Under fullgraph=True Dynamo's frame counters stay 0; the record does not depend on them.
    assert counters["frames"]["total"] == 0


def test_no_recompiles_raises_on_collision_and_passes_on_the_fix(tmp_path):
    with pytest.raises(guardscope.RecompileError) as err:
        with guardscope.no_recompiles(warmup_steps=2) as guard:
            run_collision(on_step=guard.step)
    message = str(err.value)
    assert message.startswith("1 recompile(s) inside no_recompiles():")
    assert "0/2 TinyDecoder.forward (_collision_model.py:117)" in message
    assert "forward-hook closure state: collector.capture_activation_norms at " in message
    assert [e["compile_id"] for e in err.value.events] == ["0/2"]

    # The same guard without warm-up also counts step 2's recompile.
    with pytest.raises(guardscope.RecompileError) as err:
        with guardscope.no_recompiles():
            run_collision()
    assert [e["compile_id"] for e in err.value.events] == ["0/1", "0/2"]

    with guardscope.no_recompiles() as guard:
        run_collision(fixed=True)
    assert guard.recompiles == []


def test_no_recompiles_learns_steps_from_a_step_logger_and_honours_allow(tmp_path):
    log = guardscope.StepLogger(tmp_path / "s.jsonl", warn=False)
    with guardscope.no_recompiles(warmup_steps=2, allow=("closure_hook_state",)) as guard:
        run_collision(log)
    log.close()
    assert guard.recompiles == []


def test_no_recompiles_rejects_unknown_categories():
    with pytest.raises(ValueError, match="unknown recompile categories \\['closure_hook_stat'\\]"):
        guardscope.no_recompiles(allow=("closure_hook_stat",))


def test_no_recompiles_with_warmup_but_no_steps_says_how_to_mark_them(torch):
    with pytest.raises(ValueError, match="call guard.step"):
        with guardscope.no_recompiles(warmup_steps=1):
            torch.compile(lambda x: x + 1, backend="aot_eager")(torch.ones(2))


def test_no_recompiles_as_a_decorator_and_never_masks_an_exception(torch):
    f = torch.compile(lambda x, n: x * n, backend="aot_eager", dynamic=False)
    x = torch.ones(2)
    torch._dynamo.reset()

    @guardscope.no_recompiles()
    def recompiles():
        f(x, 1)
        f(x, 2)

    with pytest.raises(guardscope.RecompileError, match="1 recompile"):
        recompiles()

    with pytest.raises(KeyError):
        with guardscope.no_recompiles():
            f(x, 3)
            raise KeyError("the user's own error")


def test_compile_events_collects_compiles_recompiles_and_graph_breaks(torch):
    def with_break(x):
        x = x + 1
        print("graph break")
        return x * 2

    torch._dynamo.reset()
    f = torch.compile(with_break, backend="aot_eager")
    with guardscope.compile_events() as seen:
        f(torch.ones(3))
        f(torch.ones(3, dtype=torch.float64))
    ids = [e["compile_id"] for e in seen.events]
    assert ids == ["0/0", "1/0", "0/1", "1/1"], ids
    assert [e["compile_id"] for e in seen.recompiles] == ["0/1", "1/1"]
    assert {e["cause"]["category"] for e in seen.recompiles} == {"dtype"}
    print_line = with_break.__code__.co_firstlineno + 2
    assert seen.graph_breaks == [f"Failed to trace builtin operator at {__file__}:{print_line}"] * 2
    assert repr(seen) == "<CompileEvents: 4 compiles, 2 recompiles>"


def test_step_logger_drives_an_activation_trace_step(tmp_path, torch):
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
    trace = guardscope.trace_activations(model, output=tmp_path / "act.jsonl")
    log = guardscope.StepLogger(tmp_path / "s.jsonl", trace=trace)
    for step in (5, 6, 7):
        with log.step(step):
            model(torch.ones(1, 4))
    log.close()
    trace.close()
    steps = sorted({r["step"] for r in read_jsonl(tmp_path / "act.jsonl")})
    assert steps == [5, 6, 7]


def test_an_unwritable_step_file_warns_once_and_training_goes_on(torch, caplog):
    # Every write to /dev/full fails with ENOSPC, as on a full disk.
    log = guardscope.StepLogger("/dev/full")
    f = torch.compile(lambda x: x * 2, backend="aot_eager")
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        for step in range(4):
            with log.step(step):
                assert torch.equal(f(torch.ones(2)), torch.full((2,), 2.0))
        log.close()
    failures = [r.getMessage() for r in caplog.records if "could not" in r.getMessage()]
    assert len(failures) == 1 and "/dev/full" in failures[0], failures
    assert log.records == 0


def test_an_unwritable_path_fails_at_construction(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OSError):
        guardscope.StepLogger(blocker / "steps.jsonl")


SCRIPT = """
import torch, guardscope
f = torch.compile(lambda x, n: x * n, backend="aot_eager", dynamic=False)
log = guardscope.StepLogger({steps!r}, warn=False)
for step in range(4):
    with log.step(step):
        f(torch.ones(2), 1 if step < 2 else 2)
log.close()
"""


def test_torch_trace_keeps_working_and_agrees_with_the_step_records(tmp_path):
    steps = tmp_path / "steps.jsonl"
    trace_dir = tmp_path / "trace"
    env = dict(os.environ, TORCH_TRACE=str(trace_dir))
    subprocess.run([sys.executable, "-c", SCRIPT.format(steps=str(steps))], env=env, check=True, timeout=300)
    records = read_jsonl(steps)
    assert [[c["compile_id"] for c in r["compiles"]] for r in records] == [["0/0"], [], ["0/1"], []]
    summary = subprocess.run(
        [sys.executable, "-m", "guardscope", "summary", "--json", str(trace_dir)],
        capture_output=True,
        text=True,
        check=True,
    )
    frames = json.loads(summary.stdout)["frames"]
    assert [c["compile_id"] for c in frames[0]["compiles"]] == ["0/0", "0/1"]
    logged = {c["compile_id"]: c for r in records for c in r["compiles"]}
    shared = ("duration_s", "backward_duration_s", "attempts", "failed", "finished", "cache_limit")
    for compile in frames[0]["compiles"]:
        event = logged[compile["compile_id"]]
        assert event["seconds"] == pytest.approx(compile["duration_s"], abs=1e-6)
        # One compile record: the fields summary --json has, under its names.
        for field in shared:
            assert event[field] == pytest.approx(compile[field], abs=1e-6), field
        assert event["backward_seconds"] == event["backward_duration_s"]


@pytest.mark.parametrize("rank", [None, "3"])
def test_steps_without_compiles_write_exactly_the_line_json_dumps_writes(tmp_path, torch, monkeypatch, rank):
    # Such steps skip the JSON encoder (most steps of a run): their lines must
    # be what json.dumps makes of the record, with the values the step had.
    import time

    if rank is None:
        monkeypatch.delenv("RANK", raising=False)
    else:
        monkeypatch.setenv("RANK", rank)
    torch._dynamo.reset()
    f = torch.compile(lambda x: x + 1, backend="aot_eager")
    path = tmp_path / "steps.jsonl"
    log = guardscope.StepLogger(path, warn=False)
    returned, kept = [], []
    before = time.time()
    for step in range(4):  # step 0 compiles: the encoder's route, for comparison
        log.begin(step)
        f(torch.ones(2))
        time.sleep(0.002)
        returned.append(log.end())
        kept.append(log.last)
    after = time.time()
    log.close()
    lines = path.read_text().splitlines()
    assert lines == [json.dumps(r) for r in returned] and returned == kept
    records = [json.loads(line) for line in lines]
    assert [len(r["compiles"]) for r in records] == [1, 0, 0, 0]
    assert [list(r) for r in records[1:]] == [list(records[0])] * 3, "same keys, same order"
    assert all(r.get("rank") == (None if rank is None else 3) for r in records)
    assert all(r["pid"] == os.getpid() for r in records)
    for r in records[1:]:
        assert before - 1e-6 <= r["start"] <= after and r["start"] == round(r["start"], 6)
        assert 2.0 <= r["wall_ms"] < 1000 * (after - before) + 1e-3 and r["wall_ms"] == round(r["wall_ms"], 3)
        assert (r["compile_s"], r["recompiles"], r["graph_breaks"]) == (0, 0, 0)
        assert r["counters"] == {"frames_total": 0, "frames_ok": 0, "unique_graphs": 0, "graph_breaks": 0}


def test_waiting_records_are_written_as_json_dumps_writes_their_dicts(tmp_path, torch):
    # Records of steps without compiles are formatted when written, their
    # floats from integers (not repr): the same text at the edges, too.
    log = guardscope.StepLogger(tmp_path / "steps.jsonl", warn=False)
    now = 1_764_000_000_123_456_789
    times = [
        (now, 0),  # wall 0.0
        (now - now % 1_000_000_000, 499),  # start x.0, wall rounds to 0.0
        (now + 500, 500),  # rounds up: 0.001
        (1_700_000_000_100_000_000, 1_000_000),  # start x.1, wall 1.0
        (now, 12_345_678_912_345),  # wall over three hours
        (5_000_000_000, 999_499),  # a clock far off (1970): repr's route
        (3_999_999_999_999_999_499, 10_000),  # the last start written from integers
    ]
    for step, (start_ns, wall_ns) in enumerate(times):
        log._pending.append((step, start_ns, wall_ns))
    from guardscope._step_records import quiet_record

    expected = [json.dumps(quiet_record(step, *t, log._rank, log._pid, log.session)) for step, t in enumerate(times)]
    log.close()
    assert (tmp_path / "steps.jsonl").read_text().splitlines() == expected
