"""StepLogger and no_recompiles inside real jobs: nothing lost, nothing
misattributed (issue 31). DDP runs two real processes over gloo, spawned the
way torch.multiprocessing.spawn users do, with the logger made before the
process group; threads run real compiled code."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import guardscope
from conftest import read_jsonl

SPAWNED = textwrap.dedent(
    """
    import os, sys
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp
    import guardscope

    def scale(x, k):
        return x * k

    def worker(rank, out, port):
        # The common order under mp.spawn: $RANK unset, logger first.
        log = guardscope.StepLogger(os.path.join(out, "steps_<rank>.jsonl"), warn=False)
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = str(port)
        dist.init_process_group("gloo", rank=rank, world_size=2)
        f = torch.compile(scale, backend="eager")
        for step in range(6):
            with log.step(step):
                f(torch.ones(4), 2)
                dist.barrier()
        log.close()
        dist.destroy_process_group()

    if __name__ == "__main__":
        os.environ.pop("RANK", None)
        mp.spawn(worker, args=(sys.argv[1], int(sys.argv[2])), nprocs=2)
    """
)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_spawned(tmp_path, source, out):
    """Runs `source` (two processes made by mp.spawn, then a gloo process
    group) with $RANK unset, writing into `out`; returns the finished run."""
    script = tmp_path / f"spawned_{out.name}.py"
    script.write_text(source)
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK")}
    done = subprocess.run(
        [sys.executable, str(script), str(out), str(free_port())],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done


def test_ddp_loggers_made_before_the_process_group_write_one_whole_file_per_rank(tmp_path):
    out = tmp_path / "steps"
    run_spawned(tmp_path, SPAWNED, out)
    assert sorted(p.name for p in out.iterdir()) == ["steps_0.jsonl", "steps_1.jsonl"]
    for rank in (0, 1):
        records = read_jsonl(out / f"steps_{rank}.jsonl")
        assert [r["step"] for r in records] == list(range(6)), rank
        assert {r["rank"] for r in records} == {rank}
        assert len({r["pid"] for r in records}) == 1


def test_two_loggers_of_one_process_on_one_path_share_it_and_never_truncate_it(tmp_path, torch, caplog):
    # A logger never closed (a train() that raised, a notebook cell run
    # again) and a new one on its path: this process is no other process;
    # both write the file, whole, each record with its logger's session.
    # Two processes: tests/python/test_records_kept.py.
    path = tmp_path / "steps.jsonl"
    first = guardscope.StepLogger(path, warn=False)
    with first.step(0):
        pass
    first.flush()
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        second = guardscope.StepLogger(path, warn=False)
    with second.step(0):
        pass
    with first.step(1):
        pass
    first.close()
    second.close()
    records = read_jsonl(path)
    assert sorted((r["session"] == first.session, r["step"]) for r in records) == [(False, 0), (True, 0), (True, 1)]
    assert second.path == str(path) and first.session != second.session
    assert not caplog.records, caplog.text


def test_a_step_file_deleted_mid_run_is_created_again_with_one_warning(tmp_path, torch, caplog):
    # Noticed at the next write (flush() here, after each step): what is
    # written from then on goes to the new file.
    path = tmp_path / "steps.jsonl"
    log = guardscope.StepLogger(path, warn=False)
    with log.step(0):
        pass
    log.flush()
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        for step in (1, 2):
            path.unlink()
            with log.step(step):
                pass
            log.flush()
    with log.step(3):
        pass
    log.close()
    assert [r["step"] for r in read_jsonl(path)] == [2, 3]
    warnings = [r.getMessage() for r in caplog.records if "was deleted" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert str(path) in warnings[0]


def test_records_waiting_when_the_step_file_is_deleted_go_to_the_new_file(tmp_path, torch):
    path = tmp_path / "steps.jsonl"
    log = guardscope.StepLogger(path, warn=False)
    with log.step(0):
        pass
    log.flush()
    with log.step(1):
        pass
    path.unlink()
    with log.step(2):
        pass
    log.close()
    assert [r["step"] for r in read_jsonl(path)] == [1, 2]


# A run killed (SIGKILL) right after the end of step KILL_AFTER: steps 0 and
# 70 compile (70 recompiles: a new shape), every other step compiles nothing.
KILLED = textwrap.dedent(
    """
    import os, signal, sys, time
    import torch
    import guardscope

    path, kill_after, slow_step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    f = torch.compile(lambda x: x * 2, backend="eager", dynamic=False)
    log = guardscope.StepLogger(path, warn=False)
    for step in range(1000):
        with log.step(step):
            f(torch.ones(3 if step >= 70 else 2))
            if step == slow_step:
                time.sleep(1.1)  # over WAIT_NS since the last write
        if step == kill_after:
            os.kill(os.getpid(), signal.SIGKILL)
    """
)


def run_killed(tmp_path, kill_after, slow_step=-1):
    script = tmp_path / "killed.py"
    script.write_text(KILLED)
    path = tmp_path / "steps.jsonl"
    done = subprocess.run(
        [sys.executable, str(script), str(path), str(kill_after), str(slow_step)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == -9, done.stderr
    text = path.read_text()
    assert text == "" or text.endswith("\n"), "whole lines only"
    return [r["step"] for r in read_jsonl(path)], read_jsonl(path)


def test_a_killed_run_loses_at_most_the_steps_without_compiles_still_waiting(tmp_path):
    from guardscope._steps import WAIT_RECORDS

    # Killed after step 100: step 70 compiled, so 0..70 are in the file (it
    # wrote the records waiting before it), and of 71..100 (30 records, fewer
    # than WAIT_RECORDS) none needed to be.
    steps, records = run_killed(tmp_path, kill_after=100)
    assert steps == list(range(len(steps))), "a prefix of the run, in order"
    assert len(steps) >= 71 and [r["step"] for r in records if r["compiles"]] == [0, 70]
    assert 101 - len(steps) < WAIT_RECORDS
    # Killed after step 200: at most WAIT_RECORDS - 1 steps were waiting.
    steps, _ = run_killed(tmp_path, kill_after=200)
    assert steps == list(range(len(steps)))
    assert 201 - len(steps) < WAIT_RECORDS


def test_a_step_ending_a_second_after_the_last_write_is_written_at_its_end(tmp_path):
    steps, _ = run_killed(tmp_path, kill_after=30, slow_step=30)
    assert steps == list(range(31))


WITHOUT_CLOSE = textwrap.dedent(
    """
    import os, sys
    import multiprocessing as mp
    import guardscope

    def steps(path, n):
        log = guardscope.StepLogger(path, warn=False)  # never closed
        for step in range(n):
            with log.step(step):
                pass
        return log

    def child(path):
        steps(path, 5)  # a multiprocessing child ends with os._exit

    if __name__ == "__main__":
        out = sys.argv[1]
        log = steps(os.path.join(out, "exit.jsonl"), 7)
        # A forked child holds the parent's waiting records: it never writes them.
        forked = steps(os.path.join(out, "forked.jsonl"), 3)
        pid = os.fork()
        if pid == 0:
            sys.exit(0)  # runs atexit in the child
        os.waitpid(pid, 0)
        process = mp.get_context("spawn").Process(target=child, args=(os.path.join(out, "child.jsonl"),))
        process.start()
        process.join()
        assert process.exitcode == 0
    """
)


def test_waiting_records_are_written_at_exit_once_even_without_close(tmp_path):
    script = tmp_path / "without_close.py"
    script.write_text(WITHOUT_CLOSE)
    done = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [r["step"] for r in read_jsonl(tmp_path / "exit.jsonl")] == list(range(7))
    assert [r["step"] for r in read_jsonl(tmp_path / "forked.jsonl")] == [0, 1, 2], "written once, by the parent"
    assert [r["step"] for r in read_jsonl(tmp_path / "child.jsonl")] == list(range(5))


def test_flush_writes_the_waiting_records_now_and_a_collected_logger_writes_them(tmp_path, torch):
    import gc

    path = tmp_path / "steps.jsonl"
    log = guardscope.StepLogger(path, warn=False)
    for step in range(3):
        with log.step(step):
            pass
    assert path.read_text() == "" and log.records == 3, "they wait"
    log.flush()
    assert [r["step"] for r in read_jsonl(path)] == [0, 1, 2]
    with log.step(3):
        pass
    del log
    gc.collect()
    assert [r["step"] for r in read_jsonl(path)] == [0, 1, 2, 3]


def scale_by(x, k):
    return x * k


def run_on_a_thread(fn):
    errors: list[BaseException] = []

    def target():
        try:
            fn()
        except BaseException as exc:  # handed back to the test's thread
            errors.append(exc)

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if errors:
        raise errors[0]


def test_another_threads_recompile_is_not_this_threads(torch):
    # The other thread recompiles (k changes) while this one's block is
    # open; this thread compiles nothing.
    torch._dynamo.reset()
    f = torch.compile(scale_by, backend="eager", dynamic=False)

    def other():
        f(torch.ones(3), 2)
        f(torch.ones(3), 3)

    with guardscope.no_recompiles():
        run_on_a_thread(other)
    with pytest.raises(guardscope.RecompileError):
        with guardscope.no_recompiles(all_threads=True):
            run_on_a_thread(lambda: f(torch.ones(3), 4))
    with pytest.raises(guardscope.RecompileError):
        with guardscope.no_recompiles():
            f(torch.ones(3), 5)


def test_a_step_lists_only_the_compiles_of_its_own_thread(tmp_path, torch):
    torch._dynamo.reset()
    f = torch.compile(scale_by, backend="eager", dynamic=False)
    mine = guardscope.StepLogger(tmp_path / "mine.jsonl", warn=False)
    every = guardscope.StepLogger(tmp_path / "all.jsonl", warn=False, all_threads=True)
    mine.begin(0)
    every.begin(0)
    run_on_a_thread(lambda: f(torch.ones(3), 2))
    mine.end()
    every.end()
    with mine.step(1), every.step(1):
        f(torch.ones(3), 3)
    mine.close()
    every.close()
    own = read_jsonl(tmp_path / "mine.jsonl")
    assert [len(r["compiles"]) for r in own] == [0, 1]
    every_thread = read_jsonl(tmp_path / "all.jsonl")
    assert [len(r["compiles"]) for r in every_thread] == [1, 1]
    assert json.dumps(own[1]["compiles"][0]["compile_id"]) == json.dumps(every_thread[1]["compiles"][0]["compile_id"])


TRACES_SPAWNED = textwrap.dedent(
    """
    import os, sys
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp
    import guardscope

    def worker(rank, out, port):
        # As for the StepLogger: the trace made before the process group, so
        # both processes resolve `<rank>` to 0 and name one file.
        model = torch.nn.Sequential(torch.nn.Linear(4, 4))
        trace = guardscope.trace_activations(model, layers="0", output=os.path.join(out, "acts_<rank>.jsonl"))
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = str(port)
        dist.init_process_group("gloo", rank=rank, world_size=2)
        for step in range(6):
            trace.set_step(step)
            model(torch.ones(2, 4))
            dist.barrier()
        trace.close()
        dist.destroy_process_group()

    if __name__ == "__main__":
        os.environ.pop("RANK", None)
        mp.spawn(worker, args=(sys.argv[1], int(sys.argv[2])), nprocs=2)
    """
)


def test_two_processes_tracing_one_path_never_truncate_each_other(tmp_path):
    out = tmp_path / "acts"
    done = run_spawned(tmp_path, TRACES_SPAWNED, out)
    names = sorted(p.name for p in out.iterdir())
    # One process keeps the name, the other writes beside it and says so.
    assert len(names) == 2 and names[0] == "acts_0.jsonl" and names[1].startswith("acts_0.pid"), names
    assert "is being written by another process" in done.stderr, done.stderr
    for name in names:
        records = read_jsonl(out / name)
        assert [r["step"] for r in records] == list(range(6)), (name, records)
