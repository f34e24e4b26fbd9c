"""Every ``torch.compile`` of a process compiled with a cheap backend, for a rehearsal.

Dynamo decides what to guard and when to recompile before it hands a graph
to the backend, so a rehearsal can give each graph to ``eager`` (or
``aot_eager``) instead of Inductor: the same guards and recompiles, without
code generation or autotuning. The swap is made on the two classes that
``torch.compile`` wraps every backend in, so it also reaches models compiled
before the rehearsal started, and whatever Dynamo does differently for
Inductor (it still sees an Inductor wrapper) is kept.

``guardscope rehearse -- CMD`` writes this file as ``sitecustomize.py`` into
a directory it puts first on the command's PYTHONPATH (so it imports nothing
from guardscope: the command's Python may not have it). There it waits for
torch to be imported, patches it, then runs the ``sitecustomize`` it shadows,
if any. ``guardscope.rehearse`` calls ``force_backend`` directly.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys
from typing import Any, Callable, Optional, Sequence

ENV = "GUARDSCOPE_REHEARSE_BACKEND"


def force_backend(torch: Any, backend: str) -> Callable[[], None]:
    """Makes every graph ``torch.compile`` compiles go to ``backend``;
    returns the function that undoes it."""
    from torch._dynamo.backends.registry import lookup_backend

    compiler = lookup_backend(backend)
    undo = []
    for name in ("_TorchCompileInductorWrapper", "_TorchCompileWrapper", "_TorchCompileAOTInductorWrapper"):
        cls = getattr(torch, name, None)
        if cls is None or "__call__" not in vars(cls):
            continue
        original = vars(cls)["__call__"]

        def rehearsed(self: Any, model_: Any, inputs_: Any, *args: Any, **kwargs: Any) -> Any:
            return compiler(model_, inputs_)

        rehearsed.__guardscope_rehearsal__ = backend  # type: ignore[attr-defined]
        setattr(cls, "__call__", rehearsed)
        undo.append((cls, original))

    def restore() -> None:
        for cls, original in undo:
            setattr(cls, "__call__", original)

    return restore


class _AfterTorch(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loader of ``torch`` so that the
    backend is forced once torch's ``__init__`` has run."""

    def __init__(self, backend: str) -> None:
        self.backend = backend

    def find_spec(self, name: str, path: Optional[Sequence[str]], target: Any = None) -> Any:
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module
        backend = self.backend

        def exec_then_force(module: Any) -> None:
            exec_module(module)
            force_backend(module, backend)

        loader.exec_module = exec_then_force  # type: ignore[method-assign]
        return spec


def _run_shadowed_sitecustomize() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        if not entry or os.path.abspath(entry) == here:
            continue
        candidate = os.path.join(entry, "sitecustomize.py")
        if os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("_guardscope_shadowed_sitecustomize", candidate)
            if spec is not None and spec.loader is not None:
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
            return


def install() -> None:
    """What the file does as ``sitecustomize``: force the backend named by
    GUARDSCOPE_REHEARSE_BACKEND on the torch the process imports."""
    backend = os.environ.get(ENV)
    if not backend:
        return
    if "torch" in sys.modules:
        force_backend(sys.modules["torch"], backend)
    else:
        sys.meta_path.insert(0, _AfterTorch(backend))


if __name__ == "sitecustomize":
    install()
    _run_shadowed_sitecustomize()
