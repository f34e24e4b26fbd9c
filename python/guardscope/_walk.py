"""The tensors in a module's output, with the path that reaches each."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Optional, Tuple, TypeVar

import torch

import guardscope._torch_range  # noqa: F401  (the supported-torch check, before any use of torch)

_MAX_DEPTH = 16
_SCALARS = (int, float, bool, str, bytes, complex, type(None))


_F = TypeVar("_F", bound=Callable[..., Any])

#: ``(path, tensor)``: a tensor in a module output and the expression reaching it.
Found = Tuple[str, Any]


def _assume_constant(fn: _F) -> _F:
    # Dynamo calls such a function at trace time and bakes in its result, so
    # the class introspection below is never traced: torch 2.11 cannot trace
    # hasattr() on a class (dataclasses.is_dataclass does one).
    decorate = getattr(getattr(torch, "_dynamo", None), "assume_constant_result", None)
    return decorate(fn) if decorate is not None else fn


@_assume_constant
def _dataclass_fields(cls: type) -> Tuple[str, ...]:
    """Field names of a dataclass type, () for any other type."""
    try:
        return tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else ()
    except Exception:
        return ()


def _key_text(key: object) -> str:
    """``repr(key)``, or ``<TypeName>`` when that raises.

    A dict key's ``repr`` is user code: under ``torch.compile`` an exception
    escaping it fails the trace (with ``fullgraph=True`` the user's compile),
    in eager it would lose the whole output. Dynamo traces the ``try`` on
    every supported torch (2.11 and later).
    """
    try:
        return repr(key)
    except Exception:
        return "<" + type(key).__name__ + ">"


def walk_outputs(obj: object, path: str = "out", found: Optional[list[Found]] = None, depth: int = 0) -> list[Found]:
    """``(path, tensor)`` for every tensor in a module output.

    Goes through tuples, lists, dicts (Hugging Face ``ModelOutput`` is one),
    named tuples and dataclasses; a path is the Python expression that
    reaches the tensor from ``out`` (``out``, ``out[0]``, ``out['logits']``,
    ``out.hidden_states``). Other leaves are skipped. Dynamo traces this
    function on every supported torch, so it sticks to ``isinstance``,
    ``type(...) is``, attribute reads of known containers and constant
    strings; class introspection is a constant computed outside the trace.
    """
    if found is None:
        found = []
    if isinstance(obj, torch.Tensor):
        found.append((path, obj))
    elif isinstance(obj, _SCALARS) or depth >= _MAX_DEPTH:
        pass
    elif isinstance(obj, dict):
        for key, item in obj.items():
            walk_outputs(item, path + "[" + _key_text(key) + "]", found, depth + 1)
    elif isinstance(obj, tuple) and type(obj) is not tuple:
        # A named tuple: its fields by name.
        for field in obj._fields:  # type: ignore[attr-defined]
            walk_outputs(getattr(obj, field), path + "." + field, found, depth + 1)
    elif isinstance(obj, (tuple, list)):
        for i, item in enumerate(obj):
            walk_outputs(item, path + "[" + str(i) + "]", found, depth + 1)
    else:
        for field in _dataclass_fields(type(obj)):
            walk_outputs(getattr(obj, field), path + "." + field, found, depth + 1)
    return found
