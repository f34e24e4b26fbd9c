"""``guardscope.rehearse``: a job's compiles predicted before it runs.

Dynamo guards on shapes, dtypes, strides, devices, Python values and global
state, never on the numbers in a tensor, so a plan that drives a ``meta``
copy of the model through the job's calls compiles where the job would.

Dynamo keeps its compiled code on the code objects of the user's functions
(the same ``forward`` the real model uses) and ``torch._dynamo.reset()``
can only drop it, never put it back. So the plan runs in a forked child
process: there Dynamo's caches are reset (frame and compile ids start at 0,
as in a new job), other trace handlers are removed (a ``TORCH_TRACE`` the
user set never sees the rehearsal), the backend is swapped for a cheap one
(``_eager_site``), and the compile events go to an in-process log
(``_compile_log``). The parent's model, caches and settings are never
touched; it reads the child's log with ``guardscope.load``'s loader.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import resource
import sys
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Callable, Iterable, List, Mapping, Optional, Sequence, Tuple

from guardscope import _native
from guardscope._fixes import Fix, candidates, judge, not_tried, unverified
from guardscope._guards import RecompileError
from guardscope._load import Run, Verdict, load
from guardscope._types import Category

__all__ = ["Fix", "PredictedProblemError", "Rehearsal", "RehearsalError", "Unseen", "rehearse"]

LOG_NAME = "dedicated_log_torch_trace_rehearsal.log"
#: The mark beside a rehearsal's log (``input::rehearsal::MARKER``).
MARKER_NAME = "guardscope-rehearsal.json"
LEVEL = "meta rehearsal"
RESULT_NAME = "rehearsal.json"

#: What a meta rehearsal cannot see, said with every prediction.
CANNOT_SEE = (
    "code that needs real values (.item(), .tolist(), a branch on a tensor's value, NaN checks), "
    "collectives and other distributed calls, device-specific Python (e.g. `if x.is_cuda`), "
    "and calls the plan does not make"
)


@dataclass(frozen=True)
class Unseen:
    """A part of the plan the rehearsal could not run, so cannot predict."""

    #: ``plan_raised`` (the plan stopped there: nothing after it ran) or
    #: ``failed_compile`` (a compile of the rehearsal failed).
    kind: str
    #: Why, in words: which kind of code a meta rehearsal cannot run.
    why: str
    #: The user's ``file:line`` it stopped at, when known.
    where: Optional[str]
    #: The exception (``Type: message``) or the failed compile's id.
    detail: str

    def __str__(self) -> str:
        at = f" at {self.where}" if self.where else ""
        return f"{self.kind}{at}: {self.why} ({self.detail})"


class RehearsalError(ValueError):
    """The rehearsal compiled nothing: it can predict nothing."""

    def __init__(self, message: str, unseen: Tuple[Unseen, ...]) -> None:
        super().__init__(message)
        self.unseen = unseen


class PredictedProblemError(RecompileError):
    """A callback's ``rehearse=True, on_problem="raise"``: the rehearsal
    predicted a problem (or could not see part of the loop), so training was
    not started. ``rehearsal`` holds the prediction (None when nothing compiled)."""

    def __init__(self, message: str, rehearsal: Optional["Rehearsal"]) -> None:
        super().__init__(message, [])
        self.rehearsal = rehearsal


PredictedProblemError.__module__ = "guardscope"


class Rehearsal(Run):
    """A ``Run`` of predicted compiles (``recompiles``, causes, verdicts,
    ``check()``, ``report()`` as ``guardscope.load`` gives them), plus what
    the rehearsal could not see."""

    __slots__ = ("unseen", "level", "cannot_see", "backend", "seconds", "peak_rss_bytes", "verified_fixes", "log_dir", "_logs")

    def __init__(
        self, run: Run, unseen: Tuple[Unseen, ...], backend: Optional[str], seconds: float, peak_rss_bytes: int, verified_fixes: Tuple[Fix, ...] = ()
    ) -> None:
        super().__init__(run._native)
        #: What the rehearsal could not run; never empty when the plan raised.
        self.unseen: Tuple[Unseen, ...] = unseen
        #: Which level predicted these compiles.
        self.level: str = LEVEL
        #: The directory holding the rehearsal's TORCH_TRACE log and its
        #: mark, kept while this object lives (``guardscope summary DIR``,
        #: ``check --baseline DIR`` read it as predicted).
        self.log_dir: Optional[str] = None
        self._logs: Optional[tempfile.TemporaryDirectory[str]] = None
        #: What that level cannot see, whatever the plan.
        self.cannot_see: str = CANNOT_SEE
        #: The backend every compile was given (None: the plan's own).
        self.backend: Optional[str] = backend
        #: Wall-clock seconds the plan took in the rehearsal's process.
        self.seconds: float = seconds
        #: Peak resident memory of the rehearsal's process.
        self.peak_rss_bytes: int = peak_rss_bytes
        #: For each predicted recompile a config setting may remove: the
        #: setting, tried by replaying the plan (``works``); code-edit fixes
        #: of predicted problems as unverified advice.
        self.verified_fixes: Tuple[Fix, ...] = verified_fixes

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
        allow_unseen: bool = False,
        max_recompile_causes: Optional[int] = None,
    ) -> Verdict:
        """The gate on the predicted recompiles; it never passes while part
        of the plan went unseen (exit code 2, as for input not read), unless
        ``allow_unseen``."""
        verdict = super().check(
            max_recompiles=max_recompiles,
            max_recompile_causes=max_recompile_causes,
            allow=allow,
            max_new_frames=max_new_frames,
            baseline=baseline,
            max_new_graph_breaks=max_new_graph_breaks,
            max_eager_frames=max_eager_frames,
            allow_unfinished=allow_unfinished,
        )
        if not self.unseen or allow_unseen:
            return verdict
        data = dict(verdict.data)
        n = len(self.unseen)
        data["passed"] = False
        data["message"] = (
            f"not rehearsed: {n} part(s) of the plan could not run on meta, so no prediction covers them; "
            f"predicted: {verdict.message}"
        )
        data["unread_inputs"] = [*data["unread_inputs"], *(f"unseen: {u}" for u in self.unseen)]
        lines = [f"FAIL (not rehearsed): {n} part(s) of the plan could not run on meta; no prediction covers them"]
        lines += [f"  unseen: {u}" for u in self.unseen]
        lines.append("The verdict on what did run (predicted):")
        lines += [f"  {line}" for line in str(verdict).rstrip("\n").split("\n")]
        return Verdict(2, json.dumps(data), "\n".join(lines) + "\n")

    def _repr_html_(self) -> str:
        import html

        unseen = "".join(f"<li>{html.escape(str(u))}</li>" for u in self.unseen)
        fixes = "".join(f"<li>{html.escape(str(f))}</li>" for f in self.verified_fixes)
        return (
            f'<div class="guardscope-rehearsal"><p><b>Predicted</b> by a {self.level} '
            f"(backend={html.escape(str(self.backend))}); it cannot see {html.escape(self.cannot_see)}.</p>"
            + (f"<p>Unseen (not predicted):</p><ul>{unseen}</ul>" if unseen else "")
            + (f"<p>Fixes:</p><ul>{fixes}</ul>" if fixes else "")
            + "</div>"
            + super()._repr_html_()
        )

    def __repr__(self) -> str:
        base = super().__repr__()
        return f"<guardscope.Rehearsal (predicted) {base[len('<guardscope.Run: '):-1]}, {len(self.unseen)} unseen>"


#: What the plan noted as not rehearsed and went on (``note_unseen``); in
#: the rehearsal's process only.
_NOTED: List[Unseen] = []


def note_unseen(kind: str, why: str, exc: BaseException) -> None:
    """For a plan (the callbacks'): a call it could not rehearse, recorded
    as unseen while the plan goes on with the rest of the loop."""
    _NOTED.append(Unseen(kind, why, _user_line(exc.__traceback__), f"{type(exc).__name__}: {exc}"[:2000]))


def _classify(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".lower()
    if any(w in text for w in ("process group", "torch.distributed", "nccl", "gloo", "init_process_group")):
        return "a collective or other distributed call: the rehearsal has no process group"
    if "data-dependent" in text or "data dependent" in text or "guardondatadependent" in text:
        return "a branch or shape that depends on a tensor's values"
    if "meta" in text and any(w in text for w in (".item()", "local_scalar", "copy out", "nonzero", "tolist", "boolean value")):
        return "code that reads a tensor's values (.item(), .tolist(), a branch on a tensor, a NaN check): meta tensors have none"
    if type(exc).__module__.startswith("torch._dynamo") or "fake tensor" in text:
        return "torch could not compile this on meta tensors (a real device may compile it): not predicted"
    if "cuda" in text or "is_cuda" in text:
        return "device-specific code: the rehearsal runs on meta"
    return "the plan raised here; what comes after it was not rehearsed"


def _user_line(tb: Optional[TracebackType]) -> Optional[str]:
    """The innermost frame of the traceback outside torch, guardscope and the
    standard library: the line of the user's code that stopped the plan."""
    import torch

    skip = (os.path.dirname(torch.__file__), os.path.dirname(os.path.abspath(__file__)), os.path.dirname(os.__file__))
    found = None
    for frame, line in traceback.walk_tb(tb):
        path = os.path.abspath(frame.f_code.co_filename)
        if not path.startswith(skip) and not path.startswith("<"):
            found = _native.display_site(f"{path}:{line}")
    return found


def _child(plan: Callable[[], object], backend: Optional[str], settings: Mapping[str, Any], marks: Sequence[Mapping[str, Any]], out_dir: str) -> None:
    """The forked process: runs the plan and leaves its log and result in ``out_dir``."""
    result: dict[str, Any] = {"unseen": [], "error": None, "marked": [], "mark_error": None}
    try:
        import torch
        import torch._dynamo
        import torch._logging._internal as internal

        from guardscope._compile_log import SHARED, _Handler
        from guardscope._eager_site import force_backend

        # OpenMP's pool does not survive fork; meta ops never use it, real ones
        # the plan makes run on one thread.
        torch.set_num_threads(1)
        trace_log = internal.trace_log
        for handler in list(trace_log.handlers):
            trace_log.removeHandler(handler)
        torch._dynamo.reset()
        torch._dynamo.utils.counters.clear()
        if backend is not None:
            force_backend(torch, backend)
        for name, value in settings.items():
            setattr(torch._dynamo.config, name, value)
        marked: Callable[[], List[int]] = lambda: [0] * len(marks)
        if marks:
            from guardscope._marks import install

            try:
                marked = install(torch, marks)
            except RuntimeError as exc:
                result["mark_error"] = str(exc)
        log = _native.CompileLog(time.localtime().tm_year)
        SHARED._replay_interned_strings(log)
        trace_log.addHandler(_Handler(log))
        trace_log.propagate = False
        _NOTED.clear()
        start = time.perf_counter()
        try:
            plan()
        except BaseException as exc:  # the plan's failure is a finding, not ours
            result["unseen"].append(
                {"kind": "plan_raised", "why": _classify(exc), "where": _user_line(exc.__traceback__), "detail": f"{type(exc).__name__}: {exc}"[:2000]}
            )
        result["unseen"][:0] = [dataclasses.asdict(u) for u in _NOTED]
        result["seconds"] = time.perf_counter() - start
        result["marked"] = marked()
        result["peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        result["compiles"] = log.text().count('"dynamo_start"')
        with open(os.path.join(out_dir, LOG_NAME), "w", encoding="utf-8") as f:
            f.write(log.text())
    except BaseException as exc:
        result["error"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        with open(os.path.join(out_dir, RESULT_NAME), "w", encoding="utf-8") as f:
            json.dump(result, f)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"was ended by signal {os.WTERMSIG(status)}"
    return f"exited with code {os.waitstatus_to_exitcode(status)}"


def _replay(
    plan: Callable[[], object],
    backend: Optional[str],
    settings: Mapping[str, Any],
    logs: Optional[str] = None,
    marks: Sequence[Mapping[str, Any]] = (),
    quiet: bool = False,
) -> Tuple[Run, List[Unseen], dict[str, Any]]:
    """The plan run once in a forked child with ``settings`` applied to
    ``torch._dynamo.config`` there and the dims of ``marks`` marked dynamic
    (``_marks``): its compiles, what went unseen, the child's result. The
    log goes to ``logs`` (kept: the caller owns it), else to a directory
    removed once read. ``quiet``: the child's stdout and stderr go to
    /dev/null (a fix's replay: the plan's output, and torch's log of a fix
    it refuses, were shown once already or are said in the fix)."""
    with contextlib.ExitStack() as stack:
        out_dir = logs or stack.enter_context(tempfile.TemporaryDirectory(prefix="guardscope-rehearse-"))
        sys.stdout.flush()
        sys.stderr.flush()
        with warnings.catch_warnings():
            # Python 3.12+ warns on fork in a threaded process; the child
            # only runs the plan on meta tensors and exits with os._exit.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:
            if quiet:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
            _child(plan, backend, settings, marks, out_dir)
        try:
            _, status = os.waitpid(pid, 0)
        except BaseException:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            raise
        result_path = os.path.join(out_dir, RESULT_NAME)
        if not os.path.exists(result_path):
            raise RuntimeError(f"the rehearsal's process {_ended(status)} before it finished; nothing was predicted")
        with open(result_path, encoding="utf-8") as f:
            result: dict[str, Any] = json.load(f)
        if result["error"]:
            raise RuntimeError(f"the rehearsal failed:\n{result['error']}")
        unseen: List[Unseen] = [Unseen(**u) for u in result["unseen"]]
        if not result["compiles"]:
            why = "; ".join(str(u) for u in unseen) or "no torch.compile'd call ran in the plan"
            raise RehearsalError(f"the plan compiled nothing, so nothing is predicted: {why}", tuple(unseen))
        # The mark that makes every reading of this log (summary.json, the
        # page) say it is predicted (src/input/rehearsal.rs reads it).
        with open(os.path.join(out_dir, MARKER_NAME), "w", encoding="utf-8") as f:
            json.dump({"level": LEVEL, "backend": backend, "cannot_see": CANNOT_SEE}, f)
        run = load(os.path.join(out_dir, LOG_NAME))
    for frame in run.frames:
        for c in frame.compiles:
            # A compile refused at the recompile limit is a prediction (the
            # frame runs eagerly from then on), not something unseen.
            if c.failed and not c.cache_limit:
                where = frame.file and f"{frame.file}:{frame.line}"
                unseen.append(Unseen(kind="failed_compile", why="a compile failed; its frame ran without it", where=where, detail=c.compile_id))
    return run, unseen, result


def rehearse(plan: Callable[[], object], *, backend: Optional[str] = "eager", verify_fixes: bool = True) -> Rehearsal:
    """Runs ``plan`` (a function of no arguments driving the job's calls on a
    ``to_meta`` copy of the model) in a forked process with fresh Dynamo
    caches, and returns its compiles as a ``Rehearsal``: the recompiles the
    real job will have, predicted, and what could not be seen.

    ``backend`` is the backend every ``torch.compile`` gets there (``"eager"``:
    the same guards as Inductor, no code generation; ``"aot_eager"`` also
    traces the backward; None keeps the plan's). With ``verify_fixes``, each
    predicted recompile that a ``torch._dynamo.config`` setting, or marking
    the changed dim dynamic (``_marks``), may remove is replayed with that
    fix (one more fork per distinct fix): ``verified_fixes``.
    The caller's model, Dynamo caches and settings are never changed:
    everything happens in the children. Raises ``RehearsalError`` when the
    plan compiled nothing, RuntimeError when the rehearsal's process failed.
    Needs ``os.fork`` (Linux, macOS).
    """
    if not hasattr(os, "fork"):
        raise NotImplementedError("guardscope.rehearse needs os.fork (Linux or macOS); use `guardscope rehearse -- CMD`")
    import guardscope._torch_range  # noqa: F401  (the supported-torch check, in the parent)

    logs = tempfile.TemporaryDirectory(prefix="guardscope-rehearsal-")
    try:
        run, unseen, result = _replay(plan, backend, {}, logs.name)
    except BaseException:
        logs.cleanup()
        raise
    fixes: List[Fix] = []
    tried = candidates(run) if verify_fixes else []
    replays: dict[str, Tuple[Run, List[str], Optional[str]]] = {}
    for candidate in tried:
        marks = [dataclasses.asdict(candidate.mark)] if candidate.mark is not None else []
        key = json.dumps([candidate.settings, marks], sort_keys=True)
        if key not in replays:
            try:
                again, again_unseen, child = _replay(plan, backend, candidate.settings, marks=marks, quiet=True)
            except RehearsalError as e:
                fixes.append(Fix(candidate.recompile.compile_id, candidate.recompile.function, candidate.recompile.cause.category if candidate.recompile.cause else "", candidate.fix, dict(candidate.settings), True, False, f"replayed: {e}", candidate.mark))
                continue
            missed = child["mark_error"] or (
                f"{candidate.mark.tensor} never reached a compile of {candidate.mark.function} as a tensor in the replay"
                if candidate.mark is not None and not any(child["marked"])
                else None
            )
            replays[key] = (again, [str(u) for u in again_unseen], missed)
        again, again_unseen_text, missed = replays[key]
        fixes.append(not_tried(candidate, missed) if missed else judge(candidate, run, len(unseen), again, again_unseen_text))
    fixes.extend(unverified(run, tried))
    rehearsal = Rehearsal(run, tuple(unseen), backend, result["seconds"], result["peak_rss_bytes"], tuple(fixes))
    # Kept while the Rehearsal lives: report() and the CLI read it there.
    rehearsal._logs = logs
    rehearsal.log_dir = logs.name
    return rehearsal
