"""The live tracers by id, and the warnings each of them gives once.

Hooks (and compiled graphs) carry only a tracer's int id: removing a trace
from ``TRACERS`` turns calls still baked into graphs into no-ops. Imports
neither torch nor the ops, so that every route of a record (eager, in a
graph, the device queue) and the hooks can look a tracer up.
"""

from __future__ import annotations

import logging
from typing import Dict, Set, Tuple

from guardscope import _native

logger = logging.getLogger("guardscope")

#: Live tracers by id.
TRACERS: Dict[int, _native.Tracer] = {}

_WARNED: Set[Tuple[int, str]] = set()


def first_time(native: _native.Tracer, what: str) -> bool:
    """True the first time ``what`` happens to ``native`` (tracers are alive,
    and their ids unique, while registered; ``forget`` runs when they leave)."""
    key = (id(native), what)
    if key in _WARNED:
        return False
    _WARNED.add(key)
    return True


def forget(native: _native.Tracer) -> None:
    _WARNED.difference_update({key for key in _WARNED if key[0] == id(native)})


def error_text(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()[0]
    return text if len(text) <= 200 else text[:197] + "..."


def warn_once(native: _native.Tracer, what: str, exc: BaseException) -> None:
    """Logs the first failure of each kind per tracer."""
    if first_time(native, what):
        logger.warning("activation trace: %s failed (%s); the model is unaffected", what, error_text(exc))
