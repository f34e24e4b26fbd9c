"""Forward hooks from JSON specs, compatible with SGLang's ``forward_hooks``.

A spec is ``{"name", "target_modules": [fnmatch patterns], "hook_factory":
"pkg.mod:fn" | "pkg.mod.fn", "config": {...}}``; the factory is called with
``config`` and returns a forward hook ``(module, inputs, output)``.

Same failure modes as the reference: a factory that cannot be imported or
found raises at registration (before any hook is registered), a spec without
targets or factory, with no matching module, or whose factory returns None
is skipped with a warning. Unlike the reference, the hooks can be removed:
``register_forward_hooks`` returns a ``HookHandles``.
"""

import fnmatch
import importlib
import json
import logging

from guardscope import _native

logger = logging.getLogger("guardscope")


def resolve_callable(path):
    """The object named ``"pkg.mod:attr"`` or ``"pkg.mod.attr"``."""
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"hook_factory must be a 'module:function' string, not {path!r}")
    path = path.strip()
    if ":" in path:
        module_name, _, attr_path = path.partition(":")
    else:
        module_name, _, attr_path = path.rpartition(".")
    if not module_name or not attr_path:
        raise ValueError(f"hook_factory {path!r} must look like 'package.module:function' or 'package.module.function'")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as exc:
        raise ImportError(f"hook_factory {path!r}: cannot import module {module_name!r}: {exc}") from exc
    for attr in attr_path.split("."):
        try:
            obj = getattr(obj, attr)
        except AttributeError:
            raise AttributeError(f"hook_factory {path!r}: {module_name!r} has no attribute {attr_path!r}") from None
    if not callable(obj):
        raise TypeError(f"hook_factory {path!r} is not callable")
    return obj


class HookHandles:
    """What ``register_forward_hooks`` registered, removable in one call."""

    def __init__(self):
        self.handles = []
        #: ``(spec name, module name)`` for every registered hook.
        self.registered = []
        #: Activation traces made by the built-in factory, by spec name.
        self.traces = {}

    def set_step(self, step):
        """Sets the step of every activation trace made from the specs."""
        for trace in self.traces.values():
            trace.set_step(step)

    def remove(self):
        """Removes every hook (and closes the built-in factory's traces)."""
        for handle in self.handles:
            handle.remove()
        for trace in self.traces.values():
            trace.close()
        self.handles, self.registered, self.traces = [], [], {}

    def __len__(self):
        return len(self.registered)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False

    def __repr__(self):
        return f"<HookHandles {len(self.registered)} hooks, {len(self.traces)} traces>"


def _load_specs(specs):
    if isinstance(specs, (str, bytes)):
        specs = json.loads(specs)
    if isinstance(specs, dict):
        specs = specs.get("forward_hooks", [specs] if "hook_factory" in specs else [])
    if not isinstance(specs, (list, tuple)) or not all(isinstance(s, dict) for s in specs):
        raise TypeError("hook specs must be a list of objects (or JSON text of one)")
    return specs


def register_forward_hooks(model, specs):
    """Registers the forward hooks described by ``specs`` on ``model``.

    ``specs`` is a list of spec dicts, JSON text of one, or an object with a
    ``forward_hooks`` list. Every factory is resolved before any hook is
    registered, so a bad spec leaves the model untouched.
    """
    from guardscope._hooks import unwrap_compiled, warn_if_compiled

    root = unwrap_compiled(model)
    warn_if_compiled(model)
    modules = list(root.named_modules())
    plan = []
    for spec in _load_specs(specs):
        name = spec.get("name", "")
        patterns = spec.get("target_modules") or []
        if isinstance(patterns, str):
            patterns = [patterns]
        if not patterns:
            logger.warning("Hook spec '%s' has no 'target_modules', skipping", name)
            continue
        factory_path = spec.get("hook_factory")
        if not factory_path:
            logger.warning("Hook spec '%s' has no 'hook_factory', skipping", name)
            continue
        factory = resolve_callable(factory_path)
        matched = [(n, m) for n, m in modules if any(fnmatch.fnmatch(n, p) for p in patterns)]
        plan.append((name, factory_path, factory, spec.get("config") or {}, patterns, matched))

    handles = HookHandles()
    try:
        for name, factory_path, factory, config, patterns, matched in plan:
            if not matched:
                logger.warning("No modules matched hook spec '%s' patterns=%s", name, patterns)
                continue
            hook = factory(config)
            if hook is None:
                logger.warning(
                    "Hook factory '%s' for spec '%s' returned None, not registering any hook", factory_path, name
                )
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

    def __init__(self, config):
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
        self.mode = config.get("mode", "op")
        if self.mode not in MODES:
            raise ValueError(f"guardscope:activation_stats: mode must be one of {MODES}, not {self.mode!r}")

    def attach(self, root, matched):
        from guardscope._hooks import attach_modules

        return attach_modules(root, matched, self.stats, self.steps, self.output, self.mode)

    def __call__(self, module, inputs, output):
        raise TypeError("guardscope:activation_stats hooks are registered by guardscope.register_forward_hooks")


def activation_stats(config):
    """The built-in hook factory ``guardscope:activation_stats``.

    ``config``: ``stats`` (list or "a,b"), ``steps`` (list or null),
    ``output`` (JSONL path), ``mode`` ("op" or "disable").
    """
    return ActivationStatsHook(dict(config or {}))
