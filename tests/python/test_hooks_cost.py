"""What a hook costs the forward pass, checked with real torch on CPU.

Item 4 of issue 16: one pass per output tensor, no temporary the size of
an output (no ``abs()`` of it, no float64 copy of it), and no host read per
module call: values stay where they were reduced until the step ends, and
then cross to the host at once. On CPU, allocations are seen through torch's
profiler (every allocation of torch's CPU allocator, with its size), torch
operations through a ``TorchDispatchMode``, and host reads through what the
Rust tracer has been handed (it records only what reaches the host).
"""

import pytest
import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile
from torch.utils._python_dispatch import TorchDispatchMode

import guardscope
from guardscope import _queue, _stats
from conftest import read_jsonl

ALL_STATS = ("abs_mean", "sum", "min", "max", "mean", "std")


def largest_allocation(fn):
    """The largest single allocation (bytes) torch's CPU allocator made while ``fn`` ran."""
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    return max([e.self_cpu_memory_usage for e in prof.profiler.function_events if e.self_cpu_memory_usage > 0] or [0])


class Ops(TorchDispatchMode):
    """Every aten op that runs inside the block, by name."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func.overloadpacket))
        return func(*args, **(kwargs or {}))


# Ops that read a value back to Python, i.e. wait for the device.
HOST_READS = {"aten._local_scalar_dense", "aten.item"}


def test_the_profiler_sees_a_whole_tensor_temporary_when_there_is_one():
    # The control for the tests below: without it, "no large allocation"
    # could mean the measurement sees nothing.
    x = torch.randn(1 << 22)
    assert largest_allocation(lambda: x.abs().sum()) >= x.numel() * 4
    assert largest_allocation(lambda: x.sum(dtype=torch.float64)) >= x.numel() * 8


class Big(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(256, 1024)
        self.b = nn.Linear(1024, 256)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


def test_eager_cpu_hooks_allocate_nothing_the_size_of_an_output(tmp_path):
    model = Big().eval()
    x = torch.randn(4096, 256)  # outputs of 4096 x 1024 floats: 16 MiB
    with torch.no_grad():
        bare = largest_allocation(lambda: model(x))
        with guardscope.trace_activations(model, stats=ALL_STATS, output=tmp_path / "t.jsonl") as trace:
            model(x)  # warm
            hooked = largest_allocation(lambda: model(x))
            trace.set_step(1)
            assert trace.records == 6  # the root, a and b, twice
        # The reference hook's way (``x.abs().mean()``) allocates one more such tensor.
        assert bare == 4096 * 1024 * 4
        assert hooked == bare, "the hooks' largest allocation is the model's own output"


def tensors_of_every_kind():
    g = torch.Generator().manual_seed(0)
    big = torch.randn(3000, 700, generator=g) * 0.01 + 1000.0  # a large mean: the variance must not cancel
    nan = torch.randn(50, generator=g)
    nan[7] = float("nan")
    inf = torch.randn(50, generator=g)
    inf[3] = float("inf")
    return [
        ("out[0]", big),
        ("out[1]", big.t()),  # not contiguous
        ("out[2]", torch.randn(4, 300, 9, generator=g).to(torch.bfloat16)),
        ("out[3]", torch.randn(2000, generator=g, dtype=torch.float64) * 1e9),  # rounded to float32 first
        ("out[4]", torch.randint(-(2**40), 2**40, (1000,), generator=g)),
        ("out[5]", torch.rand(10, 10, generator=g) > 0.5),
        ("out[6]", nan),
        ("out[7]", inf),
        ("out[8]", torch.empty(0, 3)),
        ("out[9]", torch.tensor(2.5)),
        ("out[10]", torch.randn(1, generator=g)),
    ]


def close(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    return a == b


@pytest.mark.parametrize("piece", [1 << 20, 997])
def test_the_device_route_records_what_the_one_pass_kernel_records(tmp_path, monkeypatch, piece):
    # The route of tensors off the CPU, run here on CPU tensors: the same
    # torch code a GPU runs. Small pieces make every tensor span several.
    monkeypatch.setattr(_stats, "PIECE", piece)
    found = tensors_of_every_kind()
    names, tensors = [n for n, _ in found], [t for _, t in found]
    with guardscope.trace_activations(nn.Identity(), stats=ALL_STATS, output=tmp_path / "kernel.jsonl") as ref:
        ref._native.begin_call(0)
        _stats._record_tensors(ref._native, 0, 0, names, tensors)
    with guardscope.trace_activations(nn.Identity(), stats=ALL_STATS, output=tmp_path / "device.jsonl") as dev:
        native = dev._native
        items = [(n, t, tuple(t.shape), str(t.dtype), False) for n, t in found]
        with Ops() as seen:
            assert _stats._defer_on_device(native, 0, native.begin_call(0), items)
        assert not HOST_READS & set(seen.ops), "nothing read back while the module runs"
        assert native.records == 0 and _queue.queued(native) == 1, "the values wait for the step's end"
        with Ops() as drained:
            dev.set_step(1)
        assert drained.ops.count("aten.cat") == 1 and not HOST_READS & set(drained.ops)
    want, got = read_jsonl(tmp_path / "kernel.jsonl"), read_jsonl(tmp_path / "device.jsonl")
    assert [r["tensor"] for r in got] == names
    for w, g in zip(want, got):
        assert w.keys() == g.keys()
        for key in w:
            assert close(w[key], g[key]), (w["tensor"], key, w[key], g[key])


# Ops that launch no kernel: views, aliases and an uninitialised allocation.
NO_LAUNCH = {"aten.detach", "aten.empty", "aten.view", "aten.select", "aten.alias"}


def test_the_device_route_launches_four_kernels_per_tensor_with_the_default_stats(tmp_path):
    # On a GPU the launches, not the reductions, are what a hooked module
    # costs (docs/performance.md, "On a GPU"): the float64 copy, the sum,
    # the L1 norm and the stack of the parts, nothing else. Counted here on
    # CPU tensors, which run the same torch code.
    x = torch.randn(64, 128)
    with guardscope.trace_activations(nn.Identity(), output=tmp_path / "t.jsonl") as trace:
        native = trace._native
        with Ops() as seen:
            assert _stats._defer_on_device(native, 0, native.begin_call(0), [("out", x, (64, 128), "float32", False)])
    launched = [op for op in seen.ops if op not in NO_LAUNCH]
    assert launched == ["aten.copy_", "aten.sum", "aten.linalg_vector_norm", "aten.stack"], seen.ops


def test_the_device_route_makes_no_temporary_the_size_of_the_tensor():
    x = torch.randn(1 << 23)  # 32 MiB
    parts = ("sum", "abs_sum", "shifted_sum", "shifted_squares", "min", "max")
    largest = largest_allocation(lambda: _stats.reduce_pieces(x, parts))
    assert largest <= _stats.PIECE * 8 + 4096, f"{largest} bytes at once for a {x.numel() * 4} byte tensor"
    bf16 = x.to(torch.bfloat16)
    assert largest_allocation(lambda: _stats.reduce_pieces(bf16, parts)) <= _stats.PIECE * 8 + 4096


class Three(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = nn.Linear(8, 8)
        self.c = nn.Linear(8, 8)

    def forward(self, x):
        return self.c(torch.relu(self.b(torch.relu(self.a(x)))))


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_op_mode_reads_nothing_back_per_module_and_hands_a_step_over_at_once(tmp_path, backend):
    torch._dynamo.reset()
    model = Three()
    path = tmp_path / "t.jsonl"
    trace = guardscope.trace_activations(model, layers=r"^[abc]$", stats=ALL_STATS, output=path)
    compiled = torch.compile(model, backend=backend, fullgraph=True)
    native = trace._native
    for step in range(3):
        trace.set_step(step)
        compiled(torch.randn(4, 8))
        # The op ran once per module, and nothing reached the host: each
        # module call's reduced values are still queued where the graph left them.
        assert _queue.queued(native) == 3 and native.records == 3 * step
    trace.close()
    records = read_jsonl(path)
    assert [(r["step"], r["module"], r["call"]) for r in records] == [(s, m, 0) for s in range(3) for m in "abc"]
    torch._dynamo.reset()
