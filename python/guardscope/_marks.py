"""``torch._dynamo.mark_dynamic`` applied inside a rehearsal's replay, the
fix of a size that changed, without an edit of the user's code.

The user's fix is a line before the call: ``mark_dynamic(x, 0)``. The
replay does the same on the tensor the compiled frame receives: it wraps
the callback Dynamo calls when a frame has no cache entry that fits
(``convert_frame.CatchErrorsWrapper.__call__``, the same signature on
torch 2.11 and 2.15), and before the frame compiles marks the named dim of
the argument the guard named. A tensor marked when its frame compiles is
what a mark before every call gives: the entry is compiled with the dim
dynamic, and an unmarked tensor of another size passes its guards. This
runs only in the replay's forked process, so the user's tensors, and the
marks on them, are never touched. ``torch.compiler.config.dynamic_sources``
would mark by source name without the callback, but it makes the dim
dynamic as automatic dynamic shapes do (a dim the code specialises stays
silently static) where ``mark_dynamic`` raises, and on 2.11 it cannot name
one dim: the replay would not try the fix the user is given.
"""

from __future__ import annotations

import ast
import os
from typing import Any, Callable, List, Mapping, Optional, Sequence

__all__ = ["install", "resolve"]


def resolve(source: str, local: Mapping[str, Any]) -> Any:
    """The object ``source`` names among a frame's locals: ``x``,
    ``L['x']``, ``batch['input_ids']``, ``L['self'].cache[0]``; None for
    anything else (only names, constant subscripts and attributes are read)."""
    try:
        node = ast.parse(source, mode="eval").body
    except SyntaxError:
        return None

    def walk(n: ast.AST) -> Any:
        if isinstance(n, ast.Name):
            if n.id == "L":
                return local
            if n.id not in local:
                raise LookupError(n.id)
            return local[n.id]
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
            return walk(n.value)[n.slice.value]
        if isinstance(n, ast.Attribute):
            return getattr(walk(n.value), n.attr)
        raise LookupError(ast.dump(n))

    try:
        return walk(node)
    except (LookupError, AttributeError, TypeError):
        return None


def _same_frame(code: Any, mark: Mapping[str, Any]) -> bool:
    if code.co_name != mark["function"]:
        return False
    if mark.get("file") and os.path.abspath(code.co_filename) != os.path.abspath(mark["file"]):
        return False
    return not mark.get("line") or code.co_firstlineno == mark["line"]


def install(torch: Any, marks: Sequence[Mapping[str, Any]]) -> Callable[[], List[int]]:
    """Marks each ``{"function", "file", "line", "tensor", "dim"}`` before
    its frame compiles; returns the function that gives how many times each
    was marked (0: the argument never reached a compile, so nothing was
    tried). Raises RuntimeError when this torch has no callback to wrap."""
    from torch._dynamo import convert_frame

    wrapper = getattr(convert_frame, "CatchErrorsWrapper", None)
    original: Optional[Callable[..., Any]] = vars(wrapper).get("__call__") if wrapper is not None else None
    if wrapper is None or original is None:
        raise RuntimeError(f"torch {torch.__version__} has no convert_frame.CatchErrorsWrapper.__call__ to mark arguments in")
    counts = [0] * len(marks)

    def marking(self: Any, frame: Any, cache_entry: Any, frame_state: Any) -> Any:
        for i, mark in enumerate(marks):
            if _same_frame(frame.f_code, mark):
                found: Optional[Any] = resolve(mark["tensor"], frame.f_locals)
                if isinstance(found, torch.Tensor) and found.dim() > mark["dim"]:
                    try:
                        torch._dynamo.mark_dynamic(found, mark["dim"])
                    except Exception:  # a mark torch refuses is a fix not tried (count stays)
                        continue
                    counts[i] += 1
        return original(self, frame, cache_entry, frame_state)

    wrapper.__call__ = marking
    return lambda: list(counts)
