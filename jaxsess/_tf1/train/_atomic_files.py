"""Files written whole or not at all: temporaries, ``fsync``, one ``os.replace`` each.

Every file a checkpoint save writes goes through :func:`write_files`: each
file's bytes go to a temporary beside it (``.<name>.<random>.tmp``), are
flushed and ``fsync``-ed, and the temporaries are then renamed over their
targets in the order given, and the directory is ``fsync``-ed (where the
platform allows) so the renames survive a power loss. A temporary's name is
recorded *before* the file is created, so the ``finally`` that deletes
temporaries also covers an exception raised while it is being created
(a ``KeyboardInterrupt`` delivered inside ``open``). Callers that must not be
split by a signal hold signals with :mod:`jaxsess._core._signals`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Sequence

__all__ = ["write_files", "TEMP_SUFFIX"]

TEMP_SUFFIX = ".tmp"
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def _temp_name(path: str) -> str:
    directory, base = os.path.split(path)
    return os.path.join(directory, f".{base}.{secrets.token_hex(6)}{TEMP_SUFFIX}")


def _fsync_dir(directory: str) -> None:
    """Makes the directory's entries (our renames) durable; a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # Windows: directories cannot be opened
        return
    try:
        with contextlib.suppress(OSError):  # some file systems refuse fsync on a directory
            os.fsync(fd)
    finally:
        os.close(fd)


def write_files(files: Sequence[tuple[str, bytes]]) -> None:
    """Writes each ``(path, data)`` completely to a temporary beside ``path``,
    then renames the temporaries over their paths in the order given.

    A failure or an exception (``OSError``, ``KeyboardInterrupt``) before the
    renames leaves every target as it was and no temporary; the renames
    themselves are each atomic, so the *last* path in ``files`` is the one
    whose appearance commits the set (write it last).

    Raises:
      OSError: a file cannot be created, written (``ENOSPC``, ``EFBIG``) or renamed.
    """
    temps: list[str] = []
    renamed = 0
    try:
        for path, data in files:
            while True:
                tmp = _temp_name(path)
                temps.append(tmp)  # recorded before it exists: the finally covers its creation
                try:
                    fd = os.open(tmp, _FLAGS, 0o666)
                except FileExistsError:  # another writer's temporary: not ours to delete
                    temps.pop()
                    continue
                break
            with open(fd, "wb", closefd=True) as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        for tmp, (path, _) in zip(temps, files, strict=True):
            os.replace(tmp, path)
            renamed += 1
        _fsync_dir(os.path.dirname(files[-1][0]) if files else ".")
    finally:
        for tmp in temps[renamed:]:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
