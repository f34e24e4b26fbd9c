"""A file one process writes alone: opened for appending, locked, then
emptied (or, for a run that resumes, kept), so that a second process that
resolved the same name (two ranks before the process group existed) never
truncates the first one's records."""

from __future__ import annotations

import logging
import os
import stat
from typing import Any, Optional, Tuple

logger = logging.getLogger("guardscope")

#: The files (st_dev, st_ino) this process holds the lock of: a second
#: logger of this process on one of them (a train() that raised and is run
#: again, its first logger never closed) is no other process.
_HELD: set[Tuple[int, int]] = set()


def _key(file: Any) -> Tuple[int, int]:
    st = os.fstat(file.fileno())
    return (st.st_dev, st.st_ino)


def open_locked(path: str, append: bool = False) -> Tuple[Any, bool]:
    """``path`` opened unbuffered (each write of records is one write(2))
    under an exclusive lock, emptied unless ``append``; with whether this
    process already held it (another of its loggers, never closed: the
    file is shared, kept whole). None when another process holds the lock.
    Opened for appending first, so that a file another process writes is
    never truncated."""
    file = open(path, "ab", buffering=0)
    # A device (/dev/null, /dev/full) is written as it is.
    if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
        return file, False
    key = _key(file)
    if not lock(file.fileno()):
        if key in _HELD:
            _end_line(file)
            return file, True
        file.close()
        return None, False
    _HELD.add(key)
    if append:
        _end_line(file)
    else:
        file.truncate(0)
    return file, False


def _end_line(file: Any) -> None:
    """Ends a last line an earlier writer cut (a full disk, a kill), so that
    the records appended after it are lines of their own."""
    size = os.fstat(file.fileno()).st_size
    if size:
        with open(file.name, "rb") as f:
            f.seek(size - 1)
            if f.read(1) != b"\n":
                file.write(b"\n")


def release(file: Optional[Any]) -> None:
    """Forgets the lock of a file about to be closed (its lock goes with it)."""
    if file is None:
        return
    try:
        _HELD.discard(_key(file))
    except (OSError, ValueError):
        pass


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


def open_exclusive(path: str, pid: int, append: bool = False) -> Tuple[Any, str]:
    """Opens ``path`` for this process alone (emptied unless ``append``) and
    returns it with its path. Another process writing it (two ranks that
    resolved one name) keeps it: this one writes beside it, its pid in the
    name. A logger of this process still holding it (never closed) shares
    it: the records' ``session`` tells the two apart."""
    file, shared = open_locked(path, append)
    if shared:
        logger.info("StepLogger: %s is still open in this process (a logger never closed); appending to it", path)
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
        file, _ = open_locked(other, append)
        if file is None:
            file = open(other, "ab" if append else "wb", buffering=0)
    return file, path
