# The PyO3 module guardscope._native (src/python/), for type checkers.
# tests/python/test_typing.py checks that it names what the module has.

from os import PathLike
from pathlib import Path
from typing import Final, Sequence, Union, final

from typing_extensions import Self

__all__ = ["__version__", "run_cli", "display_site", "is_kept_guard_line", "size_guard", "Tracer", "CompileLog", "STATS", "CATEGORIES", "LoadError", "LoadedRun", "load"]

__version__: Final[str]
#: The value stats an activation trace can record.
STATS: Final[list[str]]
#: The recompile categories, as `check --allow` names them.
CATEGORIES: Final[list[str]]

def run_cli(argv: Sequence[str]) -> int:
    """Runs the guardscope CLI with ``argv`` (``argv[0]`` is the program name); returns its exit code."""

def display_site(site: str) -> str:
    """``file:line`` as guardscope's text shows it: the user's files relative to the
    current directory when under it (else whole), installed packages from the
    package on (``transformers/utils/generic.py:12``), never torch's shortened form."""

def is_kept_guard_line(line: str) -> bool:
    """Whether a guard tree line (``dynamo_cpp_guards_str``) is one guardscope keeps:
    a guard that carries a value, or the manager of a root local, which names its type."""

def size_guard(guard: str) -> tuple[str, int] | None:
    """The tensor and dim a failed size guard names (``tensor 'x' size mismatch at
    index 0. ...`` -> ``("x", 0)``); None for any other guard."""

@final
class Tracer:
    """The activation-trace state and sink the hooks write to."""

    def __new__(
        cls,
        path: Union[str, PathLike[str]],
        stats: Sequence[str],
        modules: Sequence[str],
        steps: Sequence[int] | None = None,
    ) -> Self: ...
    def begin_call(self, module: int) -> int: ...
    def record_f32(
        self, module: int, tensor: str, call: int, ptr: int, numel: int, shape: Sequence[int], dtype: str
    ) -> None: ...
    def record_values(
        self,
        module: int,
        tensor: str,
        call: int,
        values: Sequence[float | str | None],
        shape: Sequence[int],
        dtype: str,
    ) -> None: ...
    def record_reduced(
        self, module: int, call: int, layout: str, sizes: Sequence[int], ptr: int, len: int
    ) -> None: ...
    @property
    def reduced_parts(self) -> list[str]: ...
    def set_step(self, step: int) -> None: ...
    @property
    def step(self) -> int: ...
    def enable(self) -> None: ...
    def disable(self) -> None: ...
    @property
    def enabled(self) -> bool: ...
    @property
    def error(self) -> str | None: ...
    def set_steps(self, steps: Sequence[int] | None = None) -> None: ...
    @property
    def steps(self) -> list[int] | None: ...
    def flush(self) -> None: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def path(self) -> Path | None: ...
    @property
    def stats(self) -> list[str]: ...
    @property
    def modules(self) -> list[str]: ...
    @property
    def records(self) -> int: ...

@final
class CompileLog:
    """Compile events in the TORCH_TRACE text format, read back by the CLI's parser."""

    def __new__(cls, year: int) -> Self: ...
    def append(self, chunk: str) -> None: ...
    @property
    def lines(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    def events_json(self, after: int, upto: int) -> str: ...
    def text(self) -> str: ...

class LoadError(ValueError):
    """The input holds no TORCH_TRACE log guardscope can read."""

def load(
    paths: Sequence[Union[str, PathLike[str]]],
    *,
    latest: bool = False,
    run: int | None = None,
    verify_all: bool = False,
) -> LoadedRun:
    """Loads TORCH_TRACE logs as ``guardscope summary`` does; ``latest``/``run`` are ``--latest``/``--run N``."""

@final
class LoadedRun:
    """A run loaded and analysed once."""

    def summary_json(self) -> str: ...
    def check(
        self,
        *,
        max_recompiles: int | None = None,
        max_recompile_causes: int | None = None,
        allow: Sequence[str] = ...,
        max_new_frames: int | None = None,
        baseline: LoadedRun | None = None,
        max_new_graph_breaks: int = 0,
        max_eager_frames: int = 0,
        allow_unfinished: bool = False,
    ) -> tuple[int, str, str]: ...
    def report(self, output: Union[str, PathLike[str]], *, overwrite: bool = False) -> Path: ...
    def repr_html(self) -> str: ...
