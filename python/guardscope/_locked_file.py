"""A file one process writes alone: opened for appending, locked, then
emptied, so that a second process that resolved the same name (two ranks
before the process group existed) never truncates the first one's
records."""

from __future__ import annotations

import logging
import os
import stat
from typing import Any, Tuple

logger = logging.getLogger("guardscope")


def open_locked(path: str) -> Any:
    """``path`` opened unbuffered (each write of records is one write(2)) and emptied, under an exclusive lock; None if another process
    holds the lock. Opened for appending first, so that a file another
    process writes is never truncated."""
    file = open(path, "ab", buffering=0)
    # A device (/dev/null, /dev/full) is written as it is.
    if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
        return file
    if not lock(file.fileno()):
        file.close()
        return None
    file.truncate(0)
    return file


def lock(fd: int) -> bool:
    """An exclusive lock on the open file, held until it is closed; False
    when another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def open_exclusive(path: str, pid: int) -> Tuple[Any, str]:
    """Opens ``path`` for this process alone, emptied, and returns it with
    its path. Another process writing it (two ranks that resolved one name)
    keeps it: this one writes beside it, its pid in the name."""
    file = open_locked(path)
    if file is None:
        root, ext = os.path.splitext(path)
        other = f"{root}.pid{pid}{ext}"
        logger.warning(
            "StepLogger: %s is being written by another process; this one (pid %s) writes %s instead",
            path,
            pid,
            other,
        )
        path = other
        file = open_locked(other) or open(other, "wb", buffering=0)
    return file, path
