"""Output paths and ranks, shared by activation traces and StepLogger."""

import os


def _distributed_rank():
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            return dist.get_rank()
    except Exception:
        pass
    return None


def distributed_initialized():
    """``torch.distributed.is_initialized`` where torch has it, else None."""
    try:
        import torch.distributed as dist

        return dist.is_initialized if dist.is_available() else None
    except Exception:
        return None


def current_rank():
    """The process's rank: torch.distributed's, else $RANK, else None."""
    rank = _distributed_rank()
    if rank is not None:
        return rank
    env = os.environ.get("RANK", "")
    return int(env) if env.isdigit() else None


def substitute(path):
    """``path`` with ``<pid>`` and ``<rank>`` substituted (rank: torch.distributed's,
    else $RANK, else 0)."""
    rank = _distributed_rank()
    if rank is None:
        rank = os.environ.get("RANK", "") or "0"
    return os.fspath(path).replace("<pid>", str(os.getpid())).replace("<rank>", str(rank))
