"""guardscope's warning class, for misuse the user can act on.

Misuse found while setting up (hooks attached to a model that already has
compiled code, a pattern that matches no module, an incomplete hook spec)
goes through ``warnings.warn`` with ``GuardscopeWarning``, so that it can be
filtered or made an error (``warnings.simplefilter``, pytest's ``-W
error::guardscope.GuardscopeWarning`` or ``filterwarnings``). What happens while training runs (a step that
recompiled, a file that failed) goes to the ``guardscope`` logger instead:
it must never raise into the training loop or a compile.

While the program has configured no logging, Python prints a logger's
warnings bare (``logging.lastResort``): ``step 12 recompiled: ...`` from
nowhere. The ``guardscope`` logger then prints them itself, as the last
resort would but with ``guardscope:`` in front; once any handler is
configured (``logging.basicConfig``, pytest's capture, a framework's
logging) it stays silent and the records go there unchanged.
"""

from __future__ import annotations

import logging
import sys
import warnings


class GuardscopeWarning(UserWarning):
    """A guardscope helper was used in a way that will not do what was meant."""


GuardscopeWarning.__module__ = "guardscope"


def warn(message: str, stacklevel: int = 2) -> None:
    """Warns with ``GuardscopeWarning``; ``stacklevel`` counts from the caller of this function."""
    warnings.warn(message, GuardscopeWarning, stacklevel=stacklevel + 1)


class _NamedLastResort(logging.Handler):
    """``logging.lastResort``, naming guardscope, while no logging is configured."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        last = logging.lastResort
        # A program that set lastResort to None asked for silence.
        if last is None or record.levelno < last.level or _configured(record.name, self):
            return
        try:
            sys.stderr.write(f"guardscope: {self.format(record)}\n")
        except Exception:
            self.handleError(record)


def _configured(name: str, ours: logging.Handler) -> bool:
    """Whether a record of logger ``name`` reaches any handler but ``ours``."""
    logger: logging.Logger | None = logging.getLogger(name)
    while logger is not None:
        if any(h is not ours for h in logger.handlers):
            return True
        if not logger.propagate:
            return False
        logger = logger.parent
    return False


def _install() -> None:
    logger = logging.getLogger("guardscope")
    if not any(isinstance(h, _NamedLastResort) for h in logger.handlers):
        logger.addHandler(_NamedLastResort())


_install()
