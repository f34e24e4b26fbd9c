"""Helpers shared by the sample scripts (not run on its own: the name starts with "_")."""

import torch._dynamo.utils as dynamo_utils


def unique_graphs():
    """Graphs dynamo has produced so far in this process (counts every compile)."""
    return dynamo_utils.counters["stats"]["unique_graphs"]


def print_compile_summary(label):
    """One line per dynamo compile (forward), from torch's in-process compilation metrics."""
    metrics = [m for m in dynamo_utils.get_compilation_metrics() if m.is_forward]
    backward = sum(1 for m in dynamo_utils.get_compilation_metrics() if not m.is_forward)
    print(f"[{label}] {len(metrics)} dynamo compiles (+{backward} backward compiles):")
    for m in metrics:
        status = f"FAILED {m.fail_type}" if m.fail_type else f"{m.entire_frame_compile_time_s:.3f} s"
        first_reason = (m.recompile_reason or "").split("\n")[0]
        print(f"[{label}]   {m.compile_id}  {m.co_name}  {status}  {first_reason[:120]}")
