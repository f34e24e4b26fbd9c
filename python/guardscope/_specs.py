"""Forward hooks from JSON specs, compatible with SGLang's ``forward_hooks``.

A spec is ``{"name", "target_modules": [fnmatch patterns], "hook_factory":
"pkg.mod:fn" | "pkg.mod.fn", "config": {...}}``; the factory is called with
``config`` and returns a forward hook ``(module, inputs, output)``.

Same failure modes as the reference: a factory that cannot be imported or
found raises at registration (before any hook is registered), a spec without
targets or factory, with no matching module, or whose factory returns None
is skipped with a warning (``GuardscopeWarning``). Unlike the reference, the hooks can be removed:
``register_forward_hooks`` returns a ``HookHandles``.
"""

from __future__ import annotations

import fnmatch
import importlib
import json
import logging
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Optional, Sequence, Tuple, Union, cast

from guardscope import _native
from guardscope._warnings import warn

if TYPE_CHECKING:
    import torch

    from guardscope._hooks import ActivationTrace
    from guardscope._types import Mode

#: A hook spec as SGLang's ``forward_hooks`` takes it.
Spec = Mapping[str, Any]

logger = logging.getLogger("guardscope")


def resolve_callable(path: object) -> Callable[..., Any]:
    """The object named ``"pkg.mod:attr"`` or ``"pkg.mod.attr"``."""
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"hook_factory must be a 'module:function' string, not {path!r}")
    name = path.strip()
    if ":" in name:
        module_name, _, attr_path = name.partition(":")
    else:
        module_name, _, attr_path = name.rpartition(".")
    if not module_name or not attr_path:
        raise ValueError(f"hook_factory {path!r} must look like 'package.module:function' or 'package.module.function'")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"hook_factory {path!r}: cannot import module {module_name!r}: {exc}") from exc
    for attr in attr_path.split("."):
        try:
            obj = getattr(obj, attr)
        except AttributeError:
            raise AttributeError(f"hook_factory {path!r}: {module_name!r} has no attribute {attr_path!r}") from None
    if not callable(obj):
        raise TypeError(f"hook_factory {path!r} is not callable")
    return cast("Callable[..., Any]", obj)


class HookHandles:
    """What ``register_forward_hooks`` registered, removable in one call."""

    def __init__(self) -> None:
        self.handles: list[Any] = []
        #: ``(spec name, module name)`` for every registered hook.
        self.registered: list[Tuple[str, str]] = []
        #: Activation traces made by the built-in factory, by spec name.
        self.traces: dict[str, ActivationTrace] = {}

    def set_step(self, step: int) -> None:
        """Sets the step of every activation trace made from the specs."""
        for trace in self.traces.values():
            trace.set_step(step)

    def remove(self) -> None:
        """Removes every hook (and closes the built-in factory's traces)."""
        for handle in self.handles:
            handle.remove()
        for trace in self.traces.values():
            trace.close()
        self.handles, self.registered, self.traces = [], [], {}

    def __len__(self) -> int:
        return len(self.registered)

    def __enter__(self) -> HookHandles:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.remove()
        return False

    def __repr__(self) -> str:
        return f"<HookHandles {len(self.registered)} hooks, {len(self.traces)} traces>"


def _load_specs(specs: object) -> list[Spec]:
    if isinstance(specs, (str, bytes)):
        specs = json.loads(specs)
    if isinstance(specs, dict):
        specs = specs.get("forward_hooks", [specs] if "hook_factory" in specs else [])
    if not isinstance(specs, (list, tuple)) or not all(isinstance(s, dict) for s in specs):
        raise TypeError("hook specs must be a list of objects (or JSON text of one)")
    return list(specs)


def register_forward_hooks(
    model: torch.nn.Module, specs: Union[str, bytes, Spec, Sequence[Spec]]
) -> HookHandles:
    """Registers the forward hooks described by ``specs`` on ``model``.

    ``specs`` is a list of spec dicts, JSON text of one, or an object with a
    ``forward_hooks`` list. Every factory is resolved before any hook is
    registered, so a bad spec leaves the model untouched.
    """
    from guardscope._hooks import unwrap_compiled, warn_if_compiled

    root = unwrap_compiled(model)
    warn_if_compiled(model, stacklevel=3)
    modules = list(root.named_modules())
    plan = []
    for spec in _load_specs(specs):
        name = spec.get("name", "")
        patterns = spec.get("target_modules") or []
        if isinstance(patterns, str):
            patterns = [patterns]
        if not patterns:
            warn(f"Hook spec '{name}' has no 'target_modules', skipping")
            continue
        factory_path = spec.get("hook_factory")
        if not factory_path:
            warn(f"Hook spec '{name}' has no 'hook_factory', skipping")
            continue
        factory = resolve_callable(factory_path)
        matched = [(n, m) for n, m in modules if any(fnmatch.fnmatch(n, p) for p in patterns)]
        plan.append((name, factory_path, factory, spec.get("config") or {}, patterns, matched))

    handles = HookHandles()
    try:
        for name, factory_path, factory, config, patterns, matched in plan:
            if not matched:
                warn(f"No modules matched hook spec '{name}' patterns={patterns}")
                continue
            hook = factory(config)
            if hook is None:
                warn(f"Hook factory '{factory_path}' for spec '{name}' returned None, not registering any hook")
                continue
            if isinstance(hook, ActivationStatsHook):
                key = name or factory_path
                if key in handles.traces:
                    key = f"{key}#{len(handles.traces)}"
                handles.traces[key] = hook.attach(root, matched)
            else:
                for _, module in matched:
                    handles.handles.append(module.register_forward_hook(hook))
            for module_name, _ in matched:
                handles.registered.append((name, module_name))
                logger.info("Registered forward hook '%s' on %s", name, module_name)
    except BaseException:
        handles.remove()
        raise
    return handles


class ActivationStatsHook:
    """What ``guardscope:activation_stats`` returns: the activation-trace hook,
    bound to the matched modules by ``register_forward_hooks``."""

    KEYS = ("stats", "steps", "output", "mode")

    def __init__(self, config: Mapping[str, Any]) -> None:
        unknown = sorted(set(config) - set(self.KEYS))
        if unknown:
            raise ValueError(f"guardscope:activation_stats: unknown config keys {unknown}; known: {list(self.KEYS)}")
        from guardscope._hooks import DEFAULT_STATS, MODES, _stat_list

        self.stats = _stat_list(config.get("stats", DEFAULT_STATS))
        bad = [s for s in self.stats if s not in _native.STATS]
        if bad:
            raise ValueError(f"guardscope:activation_stats: unknown stats {bad}; known: {list(_native.STATS)}")
        self.steps = config.get("steps")
        self.output = config.get("output")
        self.mode: Mode = config.get("mode", "op")
        if self.mode not in MODES:
            raise ValueError(f"guardscope:activation_stats: mode must be one of {MODES}, not {self.mode!r}")

    def attach(self, root: torch.nn.Module, matched: Sequence[Tuple[str, torch.nn.Module]]) -> ActivationTrace:
        from guardscope._hooks import attach_modules

        return attach_modules(root, matched, self.stats, self.steps, self.output, self.mode)

    def __call__(self, module: object, inputs: object, output: object) -> None:
        raise TypeError("guardscope:activation_stats hooks are registered by guardscope.register_forward_hooks")


def activation_stats(config: Optional[Mapping[str, Any]]) -> ActivationStatsHook:
    """The built-in hook factory ``guardscope:activation_stats``.

    ``config``: ``stats`` (list or "a,b"), ``steps`` (list or null),
    ``output`` (JSONL path), ``mode`` ("op" or "disable").
    """
    return ActivationStatsHook(dict(config or {}))
