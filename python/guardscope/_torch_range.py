"""The torch versions the helpers support, checked once, when they first import torch.

The helpers reach into private torch APIs (``torch._logging._internal.trace_log``,
``torch._logging.structured.INTERN_TABLE``, ``torch._dynamo.utils.counters``,
``torch.library.custom_op``) whose shape changes between releases, so the
range is what ``make test`` runs the hook tests on: ``OLDEST`` is the
Makefile's ``OLDEST_TORCH`` (``make test-python-oldest``), ``NEWEST_TESTED``
the torch in ``.venv``. Older torch fails the import with one message rather
than somewhere deep in a compile; newer torch is let through with a
``GuardscopeWarning``, since it usually works and the user can filter it.

Importing this module imports torch and runs the check; the modules that
import torch import it first.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

import torch

from guardscope._warnings import GuardscopeWarning

OLDEST: Tuple[int, int] = (2, 11)
NEWEST_TESTED: Tuple[int, int] = (2, 15)


def _text(version: Tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"


SUPPORTED = f"torch {_text(OLDEST)} to {_text(NEWEST_TESTED)}"


def parse(version: str) -> Optional[Tuple[int, int]]:
    """``(major, minor)`` of a torch version string ("2.15.0+cpu",
    "2.16.0.dev20260101"), None when it does not start with two numbers."""
    found = re.match(r"\s*(\d+)\.(\d+)", version)
    return (int(found.group(1)), int(found.group(2))) if found else None


def problem(version: str) -> Tuple[Optional[type], str]:
    """What to do about this torch: ``(ImportError, message)`` when it is too
    old, ``(GuardscopeWarning, message)`` when newer than tested or
    unrecognised, ``(None, "")`` when it is in the tested range."""
    parsed = parse(version)
    if parsed is None:
        return GuardscopeWarning, (
            f"guardscope: cannot read the torch version {version!r}; the torch helpers "
            f"are tested on {SUPPORTED} and may fail on others"
        )
    if parsed < OLDEST:
        return ImportError, (
            f"guardscope's torch helpers need torch {_text(OLDEST)} or newer (tested on "
            f"{SUPPORTED}); this environment has torch {version}. Upgrade torch "
            f"(pip install 'torch>={_text(OLDEST)}'), or use the guardscope command line, "
            "which reads TORCH_TRACE logs without torch"
        )
    if parsed > NEWEST_TESTED:
        return GuardscopeWarning, (
            f"guardscope: torch {version} is newer than the torch versions the helpers are "
            f"tested on ({SUPPORTED}); they use private torch APIs (torch._logging, "
            "torch._dynamo) that may have changed"
        )
    return None, ""


def check(version: str) -> None:
    """Raises ImportError for a torch older than supported, warns for a newer one."""
    kind, message = problem(version)
    if kind is ImportError:
        raise ImportError(message)
    if kind is GuardscopeWarning:
        import warnings

        # Raised while a guardscope module is being imported: the frames above
        # are importlib's, so the warning names this module, and shows once.
        warnings.warn(message, GuardscopeWarning, stacklevel=1)


check(str(torch.__version__))
