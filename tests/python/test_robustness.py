"""A hook never breaks training: failing files, failing stats, odd outputs,
threads, fork (DataLoader workers), kill -9, and hooks attached too late.

Real torch on CPU throughout; "failures" are real ones (a descriptor that
starts returning ENOSPC, /dev/full, a tensor torch cannot convert, SIGKILL).
"""

import collections
import copy
import json
import logging
import os
import subprocess
import sys
import textwrap
import threading

import pytest
import torch as torch_
from _models import Net
from conftest import compile_log, read_jsonl
from torch import nn

import guardscope

ALL_STATS = ("abs_mean", "sum", "min", "max", "mean", "std")
RECORDS_PER_FORWARD = 12  # Net(): 13 modules called, minus the ModuleList, which never is


def sink_fd(path):
    """The descriptor this process writes the trace file through."""
    fds = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") == path:
                fds.append(int(fd))
        except OSError:
            pass
    [fd] = fds
    return fd


def point_fd_at(fd, path):
    """Makes `fd` write to `path` from now on (what the sink sees when the
    disk fills up: the same descriptor, and writes that fail)."""
    target = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.dup2(target, fd)
    os.close(target)


def guardscope_warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "guardscope" and r.levelno >= logging.WARNING]


@pytest.mark.parametrize("mode", ["op", "disable"])
def test_a_disk_that_fills_up_mid_run_logs_one_warning_and_training_goes_on(torch, tmp_path, caplog, mode):
    model = Net()
    reference = copy.deepcopy(model)
    trace = guardscope.trace_activations(model, output=tmp_path / "t.jsonl", mode=mode)
    fd = sink_fd(trace.path)
    spy = tmp_path / "written-after-the-failure"
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        for step in range(6):
            trace.set_step(step)  # flushes the previous step: fails at step 3
            if step == 2:
                point_fd_at(fd, "/dev/full")  # every write fails with ENOSPC from now on
            if step == 4:
                point_fd_at(fd, spy)  # would catch any later write attempt
            x = torch.randn(2, 8)
            assert torch.equal(model(x), reference(x))
        assert trace.enabled is False
        trace.enable()
        model(torch.randn(2, 8))
        trace.flush()
        trace.close()
    [warning] = guardscope_warnings(caplog)
    assert "No space left on device" in warning and "tracing to this file is off" in warning, warning
    assert "No space left on device" in trace.error
    assert trace.enabled is False, "a failed file stays off"
    assert os.path.getsize(spy) == 0, "no write was attempted after the failure"
    records = read_jsonl(tmp_path / "t.jsonl")
    assert sorted({r["step"] for r in records}) == [0, 1], "steps flushed before the disk filled up"
    assert len(records) == 2 * RECORDS_PER_FORWARD
    assert trace.records == 3 * RECORDS_PER_FORWARD, "step 2 was accepted, then lost with the file"


def test_a_full_disk_under_fullgraph_compile_fails_inside_the_op_and_the_graph_runs_on(tmp_path, caplog):
    torch_.manual_seed(0)
    model = Net()
    compiled = torch_.compile(model, backend="aot_eager", fullgraph=True)
    # Submodules only: the compile is then exactly the unhooked model's.
    trace = guardscope.trace_activations(model, layers=".", output="/dev/full")
    x = torch_.randn(2, 8)
    expected = model(x)
    trace.set_steps([])  # the eager call above records nothing...
    trace.set_steps(None)  # ...and recording is back on before compiling
    calls_before_failure = None
    with compile_log() as log, caplog.at_level(logging.WARNING, logger="guardscope"):
        # One step, no set_step or flush: the buffer (256 KiB) fills up and is
        # written from inside the op's body, in the compiled graph.
        for call in range(400):
            torch_.testing.assert_close(compiled(x), expected)
            if calls_before_failure is None and guardscope_warnings(caplog):
                calls_before_failure = call
                records_at_failure = trace.records
        assert calls_before_failure is not None, "the buffer never filled up"
        assert trace.records == records_at_failure, "nothing recorded after the failure"
        trace.set_step(1)
        trace.close()
    [warning] = guardscope_warnings(caplog)
    assert "cannot write /dev/full: No space left on device" in warning, warning
    # The logger's name says guardscope; the message does not repeat it.
    assert warning.startswith("activation trace: cannot write"), warning
    assert log.recompiles == [] and log.graph_break_count == 0


class Quantize(nn.Module):
    def forward(self, x):
        return torch_.quantize_per_tensor(x, 0.5, 0, torch_.qint8)


@pytest.mark.filterwarnings("ignore:.*quantize:UserWarning")
@pytest.mark.parametrize("mode", ["op", "disable"])
def test_a_tensor_torch_cannot_convert_records_errors_in_place_of_its_stats(torch, tmp_path, caplog, mode):
    # `.float()` of a quantized tensor raises: no stat can be computed.
    model = Quantize()
    x = torch.tensor([1.0, -2.0, 3.5])
    with caplog.at_level(logging.WARNING, logger="guardscope"):
        with guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / "t.jsonl", mode=mode):
            out = model(x)
    assert torch.equal(out.dequantize(), x)
    [r] = read_jsonl(tmp_path / "t.jsonl")
    for stat in ALL_STATS:
        assert r[stat].startswith("<error: RuntimeError: ") and r[stat].endswith(">"), r[stat]
    assert (r["shape"], r["dtype"]) == ([3], "torch.qint8")
    assert guardscope_warnings(caplog) == []


Pair = collections.namedtuple("Pair", "hidden gate")


class Odd(nn.Module):
    def forward(self, x):
        return None, 3, "text", {"a": [None, x * 2], "b": 1.5}, Pair(x + 1, None)


class Nothing(nn.Module):
    def forward(self, x):
        return None


class OddNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.odd = Odd()
        self.nothing = Nothing()

    def forward(self, x):
        _, n, text, d, pair = self.odd(x)
        self.nothing(x)
        return d["a"][1] * n + pair.hidden * d["b"] + len(text)


@pytest.mark.parametrize("compiled", [False, True])
def test_outputs_of_none_ints_strings_and_nested_containers_never_raise(tmp_path, compiled):
    model = OddNet()
    x = torch_.randn(3)
    expected = x * 2 * 3 + (x + 1) * 1.5 + 4
    run = torch_.compile(model, backend="aot_eager", fullgraph=True) if compiled else model
    with compile_log():
        with guardscope.trace_activations(model, layers=".", output=tmp_path / "t.jsonl") as t:
            for step in range(2):
                t.set_step(step)
                torch_.testing.assert_close(run(x), expected)
    records = read_jsonl(tmp_path / "t.jsonl")
    assert [(r["step"], r["module"], r["tensor"]) for r in records] == [
        (step, "odd", tensor) for step in (0, 1) for tensor in ("out[3]['a'][1]", "out[4].hidden")
    ]


def test_threads_sharing_a_compiled_model_and_one_file_lose_and_interleave_nothing(tmp_path):
    torch_.manual_seed(0)
    model = Net(d=16)
    compiled = torch_.compile(model, backend="aot_eager", fullgraph=True)
    path = tmp_path / "t.jsonl"
    # Two traces on one path share one file; each hooks different modules.
    blocks = guardscope.trace_activations(model, layers=r"^blocks\.\d+$", stats=ALL_STATS, output=path)
    others = guardscope.trace_activations(model, layers=r"^head$|fc1$", output=path)
    threads, calls = 4, 30
    with compile_log() as log:
        compiled(torch_.randn(4, 16))  # compiles once, in this thread
        start = threading.Barrier(threads)
        errors = []

        def work():
            try:
                start.wait()
                for _ in range(calls):
                    compiled(torch_.randn(4, 16))
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        pool = [threading.Thread(target=work) for _ in range(threads)]
        for thread in pool:
            thread.start()
        for thread in pool:
            thread.join(timeout=300)
        assert not any(thread.is_alive() for thread in pool), "a thread hung"
    assert errors == []
    assert log.recompiles == []
    blocks.close()
    others.close()
    records = read_jsonl(path)  # every line parses: no two records interleaved
    total_calls = 1 + threads * calls
    modules = ["blocks.0", "blocks.1", "head", "blocks.0.fc1", "blocks.1.fc1"]
    assert len(records) == len(modules) * total_calls
    by_module = collections.defaultdict(list)
    for r in records:
        by_module[r["module"]].append(r)
    assert sorted(by_module) == sorted(modules)
    for name, rs in by_module.items():
        # The call counter is per module and shared by all threads: every call
        # of the step gets its own index, in the order threads reached the hook.
        assert sorted(r["call"] for r in rs) == list(range(total_calls)), name
        assert {tuple(r) for r in rs} == {tuple(rs[0])}, "one trace's stats per module"
    assert set(by_module["blocks.0"][0]) >= set(ALL_STATS)


FORK_SCRIPT = textwrap.dedent(
    r"""
    import json, os, sys, threading
    import torch, guardscope
    from torch import nn
    from torch.utils.data import DataLoader, Dataset

    out = sys.argv[1]
    fifo = os.path.join(out, "held.fifo")
    torch.manual_seed(0)

    def net():
        return nn.Sequential(*[nn.Linear(16, 16) for _ in range(8)])  # 9 modules with the root

    # Trace 1, on a regular file: records of the parent are buffered when
    # the workers fork, and the workers write far more than the 256 KiB buffer.
    model = net()
    trace = guardscope.trace_activations(model, output=os.path.join(out, "parent.jsonl"))

    # Trace 2, on a FIFO nobody reads yet: a thread's flush blocks inside
    # write() holding the file's lock when the workers fork.
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    held_model = net()
    held = guardscope.trace_activations(held_model, output=fifo)
    with torch.no_grad():
        for _ in range(100):  # ~100 KiB buffered: more than the pipe holds
            held_model(torch.randn(4, 16))
    flusher = threading.Thread(target=held.flush, daemon=True)
    flusher.start()
    import fcntl, termios, array
    pipe_size = fcntl.fcntl(reader, 1032)  # F_GETPIPE_SZ
    while True:  # until the pipe is full: the flush is then stuck, holding the lock
        n = array.array("i", [0])
        fcntl.ioctl(reader, termios.FIONREAD, n)
        if n[0] >= pipe_size:
            break
    assert flusher.is_alive()

    class Data(Dataset):
        def __len__(self):
            return 8

        def __getitem__(self, i):
            with torch.no_grad():
                for _ in range(100):  # hooks of both traces fire in the worker
                    model(torch.randn(4, 16))
                    held_model(torch.randn(4, 16))
            return torch.full((2,), float(i))

    def worker_init(worker_id):
        # The documented way to trace in a worker: open a trace there.
        global own
        own = guardscope.trace_activations(model, layers="^0$", output=os.path.join(out, "worker_<pid>.jsonl"))

    parent_calls = 0
    for epoch in range(2):
        trace.set_step(epoch)
        with torch.no_grad():
            for _ in range(5):  # buffered, not yet flushed, at the fork
                model(torch.randn(4, 16))
                parent_calls += 1
        loader = DataLoader(Data(), batch_size=2, num_workers=2, timeout=120, worker_init_fn=worker_init)
        seen = sorted(float(v) for batch in loader for v in batch[:, 0])
        assert seen == [float(i) for i in range(8)], seen
        with torch.no_grad():
            model(torch.randn(4, 16))
            parent_calls += 1
    trace.close()

    # Unblock the stuck flush and read everything that reaches the FIFO.
    os.set_blocking(reader, True)
    chunks = []

    def drain():
        while chunk := os.read(reader, 1 << 16):
            chunks.append(chunk)

    drainer = threading.Thread(target=drain)
    drainer.start()
    flusher.join(timeout=120)
    assert not flusher.is_alive(), "the parent's own flush never finished"
    held.close()  # the last reference to the FIFO's sink: the file closes, the reader sees EOF
    drainer.join(timeout=120)
    assert not drainer.is_alive()
    held_lines = b"".join(chunks).decode().splitlines()
    assert all(json.loads(line)["module"] is not None for line in held_lines)
    print(json.dumps({"parent_calls": parent_calls, "held_records": len(held_lines)}))
    """
)


def test_dataloader_workers_fork_without_duplicating_records_or_hanging(tmp_path):
    script = tmp_path / "fork.py"
    script.write_text(FORK_SCRIPT)
    proc = subprocess.run(
        [sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=400
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    records = read_jsonl(tmp_path / "parent.jsonl")
    assert len(records) == 9 * info["parent_calls"], "the parent's records, each exactly once"
    keys = [(r["module"], r["step"], r["call"]) for r in records]
    assert len(set(keys)) == len(keys), "no record written twice"
    assert info["held_records"] == 9 * 100, "the FIFO got the parent's records only"
    own = sorted(tmp_path.glob("worker_*.jsonl"))
    assert len(own) == 2 * 2, "2 workers per epoch, each its own file"
    for path in own:
        records = read_jsonl(path)
        # 2 batches of 2 items x 100 calls of module "0", flushed when the worker exits
        assert len(records) == 2 * 2 * 100 and {r["module"] for r in records} == {"0"}, (path, len(records))


def test_attach_from_env_on_an_already_compiled_model_warns_and_its_advice_works(tmp_path, monkeypatch):
    monkeypatch.setenv("GUARDSCOPE_TRACE_ACTIVATIONS", "1")
    monkeypatch.setenv("GUARDSCOPE_TRACE_OUTPUT", str(tmp_path / "t.jsonl"))
    torch_.manual_seed(0)
    model = Net()
    x = torch_.randn(2, 8)
    with compile_log():
        compiled = torch_.compile(model, backend="aot_eager")
        compiled(x)
        with pytest.warns(guardscope.GuardscopeWarning) as warned:
            trace = guardscope.attach_from_env(compiled)
        [warning] = [str(w.message) for w in warned]
        assert warned[0].filename == __file__  # points at the user's call
        for advice in ("already has compiled code", "ignored", "skip_nnmodule_hook_guards",
                       "before the first compiled call", "torch._dynamo.reset()"):  # fmt: skip
            assert advice in warning, (advice, warning)
        compiled(x)
        trace.set_step(1)
        # The warning is right: torch ran only the root's hook (outside the
        # compiled forward); the submodules' hooks never ran.
        assert {r["module"] for r in read_jsonl(tmp_path / "t.jsonl")} == {""}
        torch_.testing.assert_close(compiled(x), model(x))  # the eager call records step 1 too
        torch_._dynamo.reset()  # what the warning advises
        trace.set_step(2)
        compiled(x)
        trace.close()
    step2 = [r for r in read_jsonl(tmp_path / "t.jsonl") if r["step"] == 2]
    assert len(step2) == RECORDS_PER_FORWARD, "after the reset, every hook runs in the compiled model"


KILL_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, torch, guardscope
    from torch import nn
    model = nn.Sequential(*[nn.Linear(32, 32) for _ in range(4)])  # 5 records per call
    trace = guardscope.trace_activations(model, output=sys.argv[1])
    for step in range(4):
        trace.set_step(step)
        for call in range(500):  # ~300 KiB of records per step: more than the buffer
            model(torch.randn(2, 32))
            if sys.argv[2] == "kill" and step == 3 and call == 400:
                os.kill(os.getpid(), signal.SIGKILL)
    # "exit": no close(), no flush(): the interpreter's exit must flush
    """
)


@pytest.mark.parametrize("ending", ["kill", "exit"])
def test_kill_9_mid_step_loses_at_most_that_step_and_leaves_whole_lines(tmp_path, ending):
    script = tmp_path / "train.py"
    script.write_text(KILL_SCRIPT)
    out = tmp_path / "t.jsonl"
    proc = subprocess.run([sys.executable, str(script), str(out), ending], capture_output=True, text=True, timeout=300)
    assert proc.returncode == (-9 if ending == "kill" else 0), proc.stderr
    data = out.read_bytes()
    assert data.endswith(b"\n"), "no cut last line"
    records = read_jsonl(out)  # every line is whole, strict JSON
    per_step = collections.Counter(r["step"] for r in records)
    assert [per_step[step] for step in (0, 1, 2)] == [5 * 500] * 3, per_step
    if ending == "kill":
        # Part of step 3 reached the file when the buffer filled; the rest,
        # still buffered at the kill, is lost.
        assert 0 < per_step[3] < 5 * 401, per_step
    else:
        assert per_step[3] == 5 * 500


def wait_for_child(pid, timeout=120):
    """The child's exit code; a child that hangs is killed and fails the test."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail("the forked child hung")


def test_a_forked_child_records_only_through_its_own_trace_and_appends_to_a_shared_path(torch, tmp_path):
    model = Net()
    path = tmp_path / "t.jsonl"
    trace = guardscope.trace_activations(model, layers="^head$", output=path)
    model(torch.randn(2, 8))  # buffered in the parent at the fork
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        code = 1
        try:
            torch.set_num_threads(1)  # as DataLoader workers do: OpenMP's pool does not survive fork
            model(torch.randn(2, 8))  # the inherited trace records nothing here
            trace.flush()  # and never writes the parent's buffered record
            assert trace.enabled is False and trace.records == 1
            own = guardscope.trace_activations(model, layers="^head$", output=path)
            own.set_step(7)
            model(torch.randn(2, 8))
            own.close()
            code = 0
        finally:
            os._exit(code)
    assert wait_for_child(pid) == 0
    assert trace.enabled
    trace.close()
    # The child's line came first; the parent's buffered record was appended
    # after it (O_APPEND), not written over it, and written once.
    assert [(r["module"], r["step"]) for r in read_jsonl(path)] == [("head", 7), ("head", 0)]
