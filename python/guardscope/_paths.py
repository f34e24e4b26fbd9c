"""Output paths and ranks, shared by activation traces and StepLogger."""

from __future__ import annotations

import os
from typing import Callable, Optional, Union


def _distributed_rank() -> Optional[int]:
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            return int(dist.get_rank())
    except Exception:
        pass
    return None


def distributed_initialized() -> Optional[Callable[[], bool]]:
    """``torch.distributed.is_initialized`` where torch has it, else None."""
    try:
        import torch.distributed as dist

        return dist.is_initialized if dist.is_available() else None
    except Exception:
        return None


def current_rank() -> Optional[int]:
    """The process's rank: torch.distributed's, else $RANK, else None."""
    rank = _distributed_rank()
    if rank is not None:
        return rank
    env = os.environ.get("RANK", "")
    return int(env) if env.isdigit() else None


def substitute(path: Union[str, os.PathLike[str]]) -> str:
    """``path`` with ``<pid>`` and ``<rank>`` substituted (rank: torch.distributed's,
    else $RANK, else 0)."""
    found = _distributed_rank()
    rank = str(found) if found is not None else os.environ.get("RANK", "") or "0"
    return os.fspath(path).replace("<pid>", str(os.getpid())).replace("<rank>", str(rank))


def substitute_pid(path: Union[str, os.PathLike[str]]) -> str:
    """``path`` with ``<pid>`` substituted, ``<rank>`` left as it is."""
    return os.fspath(path).replace("<pid>", str(os.getpid()))
