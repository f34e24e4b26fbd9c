"""guardscope's warning class, for misuse the user can act on.

Misuse found while setting up (hooks attached to a model that already has
compiled code, a pattern that matches no module, an incomplete hook spec)
goes through ``warnings.warn`` with ``GuardscopeWarning``, so that it can be
filtered or made an error (``warnings.simplefilter``, pytest's ``-W
error::guardscope.GuardscopeWarning`` or ``filterwarnings``). What happens while training runs (a step that
recompiled, a file that failed) goes to the ``guardscope`` logger instead:
it must never raise into the training loop or a compile.
"""

from __future__ import annotations

import warnings


class GuardscopeWarning(UserWarning):
    """A guardscope helper was used in a way that will not do what was meant."""


GuardscopeWarning.__module__ = "guardscope"


def warn(message: str, stacklevel: int = 2) -> None:
    """Warns with ``GuardscopeWarning``; ``stacklevel`` counts from the caller of this function."""
    warnings.warn(message, GuardscopeWarning, stacklevel=stacklevel + 1)
