"""``guardscope.to_meta``: a copy of a model or a batch on the ``meta`` device.

A meta tensor has a shape, dtype, strides and ``requires_grad`` but no data,
which is all Dynamo guards on: a model copied here recompiles where the real
one would, without memory for its weights. The copy is made with
``copy.deepcopy`` whose memo already maps every tensor the model holds to
its meta copy, so the structure, attributes, buffers and hooks come along,
a tensor shared by two modules (tied weights) stays shared, and no tensor's
data is ever copied.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any, Dict, TypeVar

import guardscope._torch_range  # noqa: F401  (the supported-torch check, first)
import torch

T = TypeVar("T")

__all__ = ["to_meta"]


def _meta_tensor(t: torch.Tensor) -> torch.Tensor:
    copied = torch.empty_strided(tuple(t.shape), tuple(t.stride()), dtype=t.dtype, device="meta")
    if isinstance(t, torch.nn.Parameter):
        return torch.nn.Parameter(copied, requires_grad=t.requires_grad)
    if t.requires_grad:
        copied.requires_grad_(True)
    return copied


def _tensor(t: torch.Tensor, memo: Dict[int, Any]) -> torch.Tensor:
    found = memo.get(id(t))
    if found is None:
        found = _meta_tensor(t)
        memo[id(t)] = found
    return found


def _module(module: torch.nn.Module, memo: Dict[int, Any]) -> torch.nn.Module:
    if id(module) in memo:
        return memo[id(module)]
    # Every tensor deepcopy would meet, mapped in advance: deepcopy looks in
    # the memo before copying, so it never copies (or even reads) the data.
    for sub in module.modules():
        for value in vars(sub).values():
            _seed(value, memo, depth=0)
    copied: torch.nn.Module = copy.deepcopy(module, memo)
    for sub in copied.modules():
        _recompile_in_place(sub)
    return copied


def _recompile_in_place(module: torch.nn.Module) -> None:
    """A module compiled in place (Lightning's ``from_compiled``, which a
    ``Trainer.fit`` of a ``torch.compile``'d LightningModule does) holds its
    compiled methods as functions of the original: deepcopy keeps those
    same functions, so the copy's ``training_step`` would call the original
    model. They are made again around the copy's own methods (the
    ``original_*`` bound methods deepcopy has bound to the copy)."""
    ctx = vars(module).get("_compiler_ctx")
    if not isinstance(ctx, dict) or ctx.get("dynamo_ctx") is None:
        return
    for key, method in ctx.items():
        name = key[len("original_") :]
        if key.startswith("original_") and name in vars(module) and callable(method):
            object.__setattr__(module, name, ctx["dynamo_ctx"](method))


def _seed(value: Any, memo: Dict[int, Any], depth: int) -> None:
    """Puts the tensors of a module attribute (the parameter and buffer
    dicts, a tensor attribute, a list or dict of tensors) into the memo,
    and the compile contexts to keep as they are."""
    if isinstance(value, torch.Tensor):
        _tensor(value, memo)
    elif isinstance(value, torch._dynamo.eval_frame._TorchDynamoContext):
        # torch.compile's context, shared, never copied: its deepcopy (its
        # __reduce__) drops dynamic=, fullgraph= and the config it patches,
        # so a copy compiled with dynamic=False would make sizes dynamic.
        # It holds the options only; compiled code lives on code objects.
        memo[id(value)] = value
    elif depth < 3 and isinstance(value, Mapping):
        for item in value.values():
            _seed(item, memo, depth + 1)
    elif depth < 3 and isinstance(value, (list, tuple)):
        for item in value:
            _seed(item, memo, depth + 1)


def _convert(obj: Any, memo: Dict[int, Any]) -> Any:
    if isinstance(obj, torch.Tensor):
        return _tensor(obj, memo)
    if isinstance(obj, torch.nn.Module):
        return _module(obj, memo)
    if isinstance(obj, tuple):
        items = [_convert(item, memo) for item in obj]
        return type(obj)(*items) if hasattr(obj, "_fields") else type(obj)(items)
    if isinstance(obj, list):
        new_list = copy.copy(obj)
        for i, item in enumerate(obj):
            new_list[i] = _convert(item, memo)
        return new_list
    if isinstance(obj, Mapping):
        # A shallow copy keeps the mapping's type (a transformers
        # BatchEncoding, an OrderedDict); only the copy's values are replaced.
        new_map = copy.copy(obj)
        for key in list(obj.keys()):
            new_map[key] = _convert(obj[key], memo)  # type: ignore[index]
        return new_map
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        new_obj = copy.copy(obj)
        for f in dataclasses.fields(obj):
            if hasattr(obj, f.name):
                object.__setattr__(new_obj, f.name, _convert(getattr(obj, f.name), memo))
        return new_obj
    return obj


def to_meta(obj: T) -> T:
    """A copy of ``obj`` with every tensor on the ``meta`` device: same
    shapes, dtypes, strides and ``requires_grad``, no data.

    ``obj`` may be a tensor, an ``nn.Module`` (its structure, attributes,
    buffers and hooks kept, parameters still ``nn.Parameter``, parameters
    shared between modules still shared), or any nesting of dicts, lists,
    tuples (named too) and dataclasses of them; other values are kept as
    they are. The original is never changed. Functions (hooks, closures)
    are the same objects in the copy: a hook's closure that refers to the
    original model still does.
    """
    return _convert(obj, {})  # type: ignore[no-any-return]
