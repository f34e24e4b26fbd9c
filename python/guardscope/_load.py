"""``guardscope.load``: a TORCH_TRACE log read in-process, as the CLI reads it.

The loader, the analysis and the documents are the CLI's (``src/python/loaded.rs``):
Rust loads and analyses the run once and builds the ``summary --json``
document; these classes are typed views of that document. Nothing here
imports torch.
"""

from __future__ import annotations

import html
import importlib
import json
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Tuple, Union

from guardscope import _native
from guardscope._types import Category

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["Cause", "Compile", "Frame", "InputErrors", "LoadError", "Offense", "Problems", "Recompile", "Run", "Totals", "Verdict", "load"]

LoadError = _native.LoadError


@dataclass(frozen=True)
class Totals:
    """The run's counts, as ``summary --json``'s ``totals``."""

    #: Distinct frames: a function compiled on 64 ranks is one frame.
    frames: int
    #: Frames counted once per process (each rank's copy).
    process_frames: int
    compiles: int
    recompiles: int
    #: Distinct causes of the recompiles: one change that recompiled every
    #: frame graph breaks split a model into (or every rank) is one.
    recompile_causes: int
    failed_compiles: int
    unfinished_compiles: int
    cache_limit_hits: int
    graph_breaks: int
    #: Summed over every compile of every process.
    compile_seconds: float
    #: The time in which any process was compiling (what parallel ranks waited).
    compile_wall_seconds: float
    recompile_seconds: float
    processes: int
    ranks: int


@dataclass(frozen=True)
class Cause:
    """Why a recompile happened: its category, culprit and the fix."""

    category: Category
    culprit: str
    advice: str
    source: Optional[str]
    detail: Optional[str]
    called_from: Optional[str]
    library_line: Optional[str]
    raw: Optional[str] = field(repr=False)

    def __str__(self) -> str:
        return f"[{self.category}] {self.culprit}"


@dataclass(frozen=True)
class Recompile:
    """One recompile; ``cause`` is None when the log states no reason."""

    compile_id: str
    rank: Optional[int]
    frame_id: int
    function: Optional[str]
    duration_s: Optional[float]
    severity: str
    cause: Optional[Cause]
    called_from: Optional[str]
    user_calls: Tuple[str, ...] = field(repr=False)
    cause_ambiguous: bool = field(repr=False)
    #: The whole ``recompiles[]`` entry of ``summary --json``.
    data: Mapping[str, Any] = field(repr=False)

    @property
    def advice(self) -> Optional[str]:
        return None if self.cause is None else self.cause.advice


@dataclass(frozen=True)
class Compile:
    """One compile of a frame (its ``frames[].compiles[]`` entry)."""

    compile_id: str
    duration_s: Optional[float]
    failed: bool
    finished: bool
    cache_limit: bool
    graph_breaks: int
    data: Mapping[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Frame:
    """A compiled Python frame and its compiles."""

    rank: Optional[int]
    frame_id: int
    function: Optional[str]
    file: Optional[str]
    line: Optional[int]
    pid: int
    generation: int
    run: int
    compiles: Tuple[Compile, ...] = field(repr=False)

    def __repr__(self) -> str:
        where = f"{self.file}:{self.line}" if self.file else "?"
        rank = "" if self.rank is None else f" rank={self.rank}"
        return f"<Frame {self.frame_id}{rank} {self.function or '?'} at {where}: {len(self.compiles)} compiles>"


@dataclass(frozen=True)
class InputErrors:
    """What could not be read: the count, the first few as ``file:line: why``, counts by kind
    (``summary --json``'s ``problems``)."""

    count: int
    first: Tuple[str, ...]
    by_kind: Mapping[str, int]

    def __bool__(self) -> bool:
        return self.count > 0


# The name before 0.2: "problem" now means only a recompile that matters.
Problems = InputErrors


@dataclass(frozen=True)
class Offense:
    """A recompile the gate counted (or excused), as ``check --json`` lists it."""

    compile_id: str
    rank: Optional[int]
    frame_id: int
    function: Optional[str]
    category: Category
    culprit: str
    severity: str
    advice: str
    called_from: Optional[str]
    duration_s: Optional[float]
    data: Mapping[str, Any] = field(repr=False)


class Verdict:
    """The gate's verdict, as ``guardscope check`` gives it: truthy when it passed,
    ``str()`` is the text the CLI prints and ``exit_code`` its exit status."""

    __slots__ = ("passed", "exit_code", "message", "mode", "offending", "allowed", "new_frames", "unread_inputs", "data", "_text")

    def __init__(self, exit_code: int, document: str, text: str) -> None:
        data: dict[str, Any] = json.loads(document)
        self.data: Mapping[str, Any] = data
        self.passed: bool = data["passed"]
        self.exit_code: int = exit_code
        self.message: str = data["message"]
        self.mode: str = data["mode"]
        self.offending: Tuple[Offense, ...] = tuple(_offense(o) for o in data["offending"])
        self.allowed: Tuple[Offense, ...] = tuple(_offense(o) for o in data["allowed"])
        self.new_frames: Tuple[Mapping[str, Any], ...] = tuple(data["new_frames"])
        self.unread_inputs: Tuple[str, ...] = tuple(data["unread_inputs"])
        self._text = text

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<Verdict {'passed' if self.passed else 'failed'}: {self.message}>"

    def _repr_html_(self) -> str:
        colour = "#2b8a3e" if self.passed else "#c92a2a"
        rows = "".join(
            f"<li><code>{html.escape(o.compile_id)}</code> {html.escape(o.function or '?')} "
            f"[<b>{html.escape(o.category)}</b>, {html.escape(o.severity)}] {html.escape(o.culprit)}"
            f"{'' if o.called_from is None else ' · called from <code>' + html.escape(o.called_from) + '</code>'}"
            f"<br><small>fix: {html.escape(o.advice)}</small></li>"
            for o in self.offending
        )
        unread = "".join(f"<li><code>{html.escape(u)}</code></li>" for u in self.unread_inputs)
        return (
            f'<div class="guardscope-verdict" style="border-left:6px solid {colour};padding:4px 12px">'
            f'<p style="font-weight:600;color:{colour}">{html.escape(self.message)}</p>'
            + (f"<p>Offending recompiles:</p><ol>{rows}</ol>" if rows else "")
            + (f"<p>Input not read:</p><ul>{unread}</ul>" if unread else "")
            + "</div>"
        )


class Run:
    """A TORCH_TRACE run, loaded and analysed once (``guardscope.load``)."""

    __slots__ = ("_native", "data", "totals", "frames", "recompiles", "input_errors")

    def __init__(self, native: _native.LoadedRun) -> None:
        data: dict[str, Any] = json.loads(native.summary_json())
        self._native = native
        #: The ``guardscope summary --json`` document.
        self.data: Mapping[str, Any] = data
        self.totals: Totals = Totals(**data["totals"])
        self.frames: Tuple[Frame, ...] = tuple(_frame(f) for f in data["frames"])
        self.recompiles: Tuple[Recompile, ...] = tuple(_recompile(r) for r in data["recompiles"])
        # The JSON contract keeps its field name; in Python, "problem" is a
        # recompile's severity only.
        p = data["problems"]
        self.input_errors: InputErrors = InputErrors(count=p["count"], first=tuple(p["first"]), by_kind=dict(p["by_kind"]))

    @property
    def problems(self) -> InputErrors:
        """The old name of ``input_errors`` (deprecated: a "problem" is a recompile's severity)."""
        warnings.warn("Run.problems is now Run.input_errors", DeprecationWarning, stacklevel=2)
        return self.input_errors

    def check(
        self,
        *,
        max_recompiles: Optional[int] = None,
        allow: Iterable[Category] = (),
        max_new_frames: Optional[int] = None,
        baseline: Optional[Run] = None,
        max_new_graph_breaks: int = 0,
        max_eager_frames: int = 0,
        allow_unfinished: bool = False,
        max_recompile_causes: Optional[int] = None,
    ) -> Verdict:
        """The gate: ``guardscope check`` with ``--max-recompiles`` (0 unless
        only ``max_recompile_causes``, ``--max-recompile-causes``, is given:
        one cause can recompile many frames), ``--allow``,
        ``--max-new-frames``, ``--baseline`` (another loaded run),
        ``--max-new-graph-breaks``, ``--max-eager-frames`` and
        ``--allow-unfinished`` (a compile the log never finishes then does not
        fail the gate; by default it does, exit code 2)."""
        code, document, text = self._native.check(
            max_recompiles=max_recompiles,
            max_recompile_causes=max_recompile_causes,
            allow=list(allow),
            max_new_frames=max_new_frames,
            baseline=None if baseline is None else baseline._native,
            max_new_graph_breaks=max_new_graph_breaks,
            max_eager_frames=max_eager_frames,
            allow_unfinished=allow_unfinished,
        )
        return Verdict(code, document, text)

    def to_records(self) -> list[dict[str, Any]]:
        """One plain dict per compile: its frame's fields, the compile's
        ``summary --json`` fields, and for a recompile its cause's
        ``category``, ``culprit`` and ``severity`` (None for first compiles)."""
        causes = {(r.rank, r.frame_id, r.data["pid"], r.data["run"], r.compile_id): r for r in self.recompiles}
        records = []
        for f in self.frames:
            frame = {k: v for k, v in f.__dict__.items() if k != "compiles"}
            for c in f.compiles:
                r = causes.get((f.rank, f.frame_id, f.pid, f.run, c.compile_id))
                cause = None if r is None else r.cause
                records.append(
                    {
                        **frame,
                        **c.data,
                        "recompile": r is not None,
                        "category": None if cause is None else cause.category,
                        "culprit": None if cause is None else cause.culprit,
                        "severity": None if r is None else r.severity,
                    }
                )
        return records

    # Any, not pandas.DataFrame: the package type-checks without pandas
    # (an optional dependency) or its separate stubs installed.
    def to_pandas(self) -> Any:
        """``to_records()`` as a pandas ``DataFrame`` (needs pandas)."""
        try:
            pandas = importlib.import_module("pandas")
        except ImportError as e:
            raise ImportError("Run.to_pandas() needs pandas: pip install pandas") from e
        return pandas.DataFrame.from_records(self.to_records())

    def report(self, output: PathLike, *, overwrite: bool = False) -> Path:
        """Writes the HTML report into ``output`` (a new or empty directory unless
        ``overwrite``), as ``guardscope report`` does; returns index.html's path."""
        return self._native.report(os.fspath(output), overwrite=overwrite)

    def _repr_html_(self) -> str:
        return self._native.repr_html()

    def __repr__(self) -> str:
        t = self.totals
        problems = sum(1 for r in self.recompiles if r.severity == "problem")
        causes = f" from {_count(t.recompile_causes, 'cause')}" if t.recompile_causes < t.recompiles else ""
        return (
            f"<guardscope.Run: {_count(t.frames, 'frame')}, {_count(t.compiles, 'compile')}, "
            f"{_count(t.recompiles, 'recompile')}{causes} ({_count(problems, 'problem')}), "
            f"{_count(t.graph_breaks, 'graph break')}, {_count(self.input_errors.count, 'input error')}>"
        )


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def load(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    latest: bool = False,
    run: Optional[int] = None,
    verify_all: bool = False,
) -> Run:
    """Reads TORCH_TRACE logs (files, directories, ``.gz``) as ``guardscope summary``
    does, in-process. ``latest`` and ``run`` are ``--latest`` and ``--run N``.

    Raises FileNotFoundError for a missing path and ``LoadError`` (a
    ValueError) for input with no TORCH_TRACE events, with the CLI's message.
    """
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    return Run(_native.load([os.fspath(p) for p in items], latest=latest, run=run, verify_all=verify_all))


def _cause(c: Optional[Mapping[str, Any]]) -> Optional[Cause]:
    if c is None:
        return None
    return Cause(
        category=c["category"],
        culprit=c["culprit"],
        advice=c["advice"],
        source=c["source"],
        detail=c["detail"],
        called_from=c["called_from"],
        library_line=c["library_line"],
        raw=c["raw"],
    )


def _recompile(r: Mapping[str, Any]) -> Recompile:
    return Recompile(
        compile_id=r["compile_id"],
        rank=r["rank"],
        frame_id=r["frame_id"],
        function=r["function"],
        duration_s=r["duration_s"],
        severity=r["severity"],
        cause=_cause(r["cause"]),
        called_from=r["called_from"],
        user_calls=tuple(r["user_calls"]),
        cause_ambiguous=r["cause_ambiguous"],
        data=r,
    )


def _frame(f: Mapping[str, Any]) -> Frame:
    return Frame(
        rank=f["rank"],
        frame_id=f["frame_id"],
        function=f["function"],
        file=f["file"],
        line=f["line"],
        pid=f["pid"],
        generation=f["generation"],
        run=f["run"],
        compiles=tuple(
            Compile(
                compile_id=c["compile_id"],
                duration_s=c["duration_s"],
                failed=c["failed"],
                finished=c["finished"],
                cache_limit=c["cache_limit"],
                graph_breaks=c["graph_breaks"],
                data=c,
            )
            for c in f["compiles"]
        ),
    )


def _offense(o: Mapping[str, Any]) -> Offense:
    return Offense(
        compile_id=o["compile_id"],
        rank=o["rank"],
        frame_id=o["frame_id"],
        function=o["function"],
        category=o["category"],
        culprit=o["culprit"],
        severity=o["severity"],
        advice=o["advice"],
        called_from=o["called_from"],
        duration_s=o["duration_s"],
        data=o,
    )
