"""The tensors in a module's output, with the path that reaches each."""

import dataclasses

import torch

_MAX_DEPTH = 16


def walk_outputs(obj, path="out", found=None, depth=0):
    """``(path, tensor)`` for every tensor in a module output.

    Goes through tuples, lists, dicts, named tuples and dataclasses; a path is
    the Python expression that reaches the tensor from ``out``
    (``out``, ``out[0]``, ``out['logits']``, ``out.hidden_states``). Other
    leaves are skipped. Dynamo traces this function, so it sticks to
    ``isinstance``, attribute reads and constant strings.
    """
    if found is None:
        found = []
    if isinstance(obj, torch.Tensor):
        found.append((path, obj))
    elif depth >= _MAX_DEPTH:
        pass
    elif isinstance(obj, tuple) and hasattr(type(obj), "_fields"):
        for field in type(obj)._fields:
            walk_outputs(getattr(obj, field), path + "." + field, found, depth + 1)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for field in dataclasses.fields(obj):
            walk_outputs(getattr(obj, field.name), path + "." + field.name, found, depth + 1)
    elif isinstance(obj, (tuple, list)):
        for i, item in enumerate(obj):
            walk_outputs(item, path + "[" + str(i) + "]", found, depth + 1)
    elif isinstance(obj, dict):
        for key, item in obj.items():
            walk_outputs(item, path + "[" + repr(key) + "]", found, depth + 1)
    return found
