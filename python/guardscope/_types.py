"""The types of what the compile helpers hand out.

Compile events and step records stay plain dicts at run time (JSON as
written, and as users already index them); these ``TypedDict`` s give their
keys and value types to type checkers and IDEs. The fields are produced by
``src/report/events.rs`` (a compile event) and ``_steps.StepLogger`` (a
step record); ``tests/python/test_typing.py`` checks both against real ones.
"""

from __future__ import annotations

from typing import List, Literal, Optional, TypedDict

#: A recompile's category, as ``check --allow`` and ``no_recompiles(allow=)``
#: name it (``guardscope._native.CATEGORIES``, checked by a test).
Category = Literal[
    "shape_lazy_buffer",
    "shape_input",
    "stride",
    "dtype",
    "device",
    "requires_grad",
    "closure_hook_state",
    "closure_state",
    "global_var",
    "torch_global_state",
    "nn_module_attr",
    "object_id",
    "type_change",
    "constant_value",
    "container_len",
    "dict_keys",
    "hooks_changed",
    "optimizer_hyperparam",
    "optimizer_state",
    "optimizer_recreated",
    "function_identity",
    "kv_cache",
    "new_attribute",
    "cache_limit",
    "other",
]

#: A value stat an activation trace records (``guardscope._native.STATS``).
Stat = Literal["abs_mean", "sum", "min", "max", "mean", "std", "shape", "dtype"]

#: How activation hooks record under ``torch.compile``.
Mode = Literal["op", "disable"]


#: Who owns a recompile's value: whose code can change it (``summary --json``'s ``owner``).
Owner = Literal[
    "user_argument",
    "library_argument",
    "user_attribute",
    "library_attribute",
    "torch_state",
    "global",
    "closure",
    "graph_break_value",
    "unknown",
]

#: What in the log decided a recompile's severity (``summary --json``'s ``evidence.kind``).
EvidenceKind = Literal[
    "limit_hit",
    "limit_raised",
    "declared_range",
    "repeats",
    "rank_alone",
    "static_shapes",
    "hidden_state",
    "stays_specialised",
    "became_dynamic",
    "one_per_variant",
    "first_call",
    "changed_once",
    "did_not_recur",
    "not_recognised",
    "compile_failed",
]


class Evidence(TypedDict):
    """What decided a recompile's severity, in words that finish "because ..."."""

    kind: EvidenceKind
    text: str


class GuardChange(TypedDict):
    """A guarded value that differs between the failed cache entry and the new compile."""

    subject: str
    old: str
    new: str


class Cause(TypedDict):
    """Why a recompile happened: the failed cache entry closest to the new
    call (``entry``), classified and judged from the log so far."""

    category: Category
    label: str
    #: The stable id of the guard-text form guardscope read (``tensor.size``);
    #: ``unrecognised`` when it read none.
    form: str
    #: False for a guard text guardscope does not read: the gates count it
    #: whatever their budget (fail closed).
    recognised: bool
    culprit: str
    source: Optional[str]
    code: Optional[str]
    called_from: Optional[str]
    changed: List[GuardChange]
    detail: Optional[str]
    advice: str
    guard: Optional[str]
    entry: Optional[str]
    severity: Literal["problem", "expected"]
    owner: Owner
    evidence: Evidence
    #: The first compile id of the cause it shares with other frames'
    #: recompiles: recompiles with one ``group`` are one cause (one change at
    #: one call that recompiled every frame graph breaks split a model into).
    group: Optional[str]
    #: What changed, as every frame that saw it says it (``dim 1: 16 -> 24``).
    change: Optional[str]


class Reason(TypedDict):
    """One cache entry's failed guard, classified."""

    entry: Optional[str]
    guard: str
    category: Category
    culprit: str
    source: Optional[str]
    raw: str


class CompileEvent(TypedDict):
    """One compile (docs/python.md, "Each compile")."""

    compile_id: str
    attempts: int
    start: Optional[float]
    duration_s: Optional[float]
    backward_duration_s: Optional[float]
    failed: bool
    fail_type: Optional[str]
    fail_reason: Optional[str]
    finished: bool
    cache_limit: bool
    restart_reasons: List[str]
    frame_id: int
    pid: int
    generation: int
    name: str
    function: Optional[str]
    file: Optional[str]
    line: Optional[int]
    recompile: bool
    seconds: Optional[float]
    backward_seconds: Optional[float]
    graph_breaks: List[str]
    cause: Optional[Cause]
    reasons: List[Reason]


class StepCounters(TypedDict):
    """Dynamo counter deltas over one step."""

    frames_total: int
    frames_ok: int
    unique_graphs: int
    graph_breaks: int


class _StepRecordFields(TypedDict):
    step: int
    start: float
    wall_ms: float
    #: The process that wrote the record (a forked child's own pid).
    pid: int
    #: The StepLogger that wrote it, ``"<pid>-<microseconds>"`` of when it
    #: was made: each attempt (a retried train(), a resumed run) has its own.
    session: str
    compile_s: float
    recompiles: int
    graph_breaks: int
    counters: StepCounters
    compiles: List[CompileEvent]


class StepRecord(_StepRecordFields, total=False):
    """One line of a ``StepLogger`` file (docs/python.md, "Each record")."""

    #: The process's rank, when one is known (torch.distributed or $RANK).
    rank: int
