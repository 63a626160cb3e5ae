"""File access on local paths, as ``tf.compat.v1.gfile`` / ``tf.io.gfile``.

Both spellings are here: TF1's (``Exists``, ``MakeDirs``, ``Glob``,
``ListDirectory``, ``Remove``, ``Open``...) and ``tf.io.gfile``'s
(``exists``, ``makedirs``, ``glob``, ``listdir``, ``remove``...). Only
local file systems are supported (no ``gs://``, ``hdfs://``); a path with a
URL scheme raises ``UnimplementedError``. Errors are TF's: a missing file
raises :class:`~jaxsess._core.errors.NotFoundError`, an existing target of
``rename``/``copy`` without ``overwrite`` raises ``AlreadyExistsError``.
"""

from __future__ import annotations

import glob as _glob
import os
import shutil
from collections.abc import Iterator
from typing import IO, Any

from jaxsess._core import errors as errors

__all__ = [
    "GFile", "Open", "FastGFile",
    "exists", "Exists", "isdir", "IsDirectory", "makedirs", "MakeDirs", "mkdir", "MkDir",
    "glob", "Glob", "listdir", "ListDirectory", "remove", "Remove", "rmtree", "DeleteRecursively",
    "copy", "Copy", "rename", "Rename", "stat", "Stat", "walk", "Walk", "join",
]


def join(path: Any, *paths: Any) -> str:
    """The paths joined with ``/`` (local paths: ``os.path.join``), as ``tf.io.gfile.join``."""
    return os.path.join(_local(path), *(_local(p) for p in paths))


def _local(path: Any) -> str:
    p = os.fspath(path)
    if isinstance(p, bytes):
        p = p.decode("utf-8")
    if "://" in p and not p.startswith("file://"):
        raise errors.UnimplementedError(None, None, f"File system scheme '{p.split('://')[0]}' not implemented (file: '{p}')")
    return p[len("file://"):] if p.startswith("file://") else p


def _os_error(e: OSError, path: str) -> errors.OpError:
    if isinstance(e, FileNotFoundError):
        return errors.NotFoundError(None, None, f"{path}; No such file or directory")
    if isinstance(e, FileExistsError):
        return errors.AlreadyExistsError(None, None, f"{path}; File exists")
    if isinstance(e, PermissionError):
        return errors.PermissionDeniedError(None, None, f"{path}; Permission denied")
    return errors.UnknownError(None, None, f"{path}; {e.strerror or e}")


class GFile:
    """A file, as ``tf.io.gfile.GFile`` (``tf.gfile.GFile`` / ``tf.gfile.Open``).

    Args:
      name: the path.
      mode: ``'r'``, ``'w'``, ``'a'``, with ``'b'`` for bytes (as ``open``).

    Raises:
      NotFoundError: reading a file that does not exist.
    """

    def __init__(self, name: Any, mode: str = "r") -> None:
        self.name = _local(name)
        self.mode = mode
        self._f: IO[Any] | None = None

    def _file(self) -> IO[Any]:
        if self._f is None:
            try:
                self._f = open(self.name, self.mode, encoding=None if "b" in self.mode else "utf-8")
            except OSError as e:
                raise _os_error(e, self.name) from None
        return self._f

    def read(self, n: int = -1) -> Any:
        """Up to ``n`` bytes/characters (all with ``-1``)."""
        return self._file().read(n)

    def readline(self) -> Any:
        return self._file().readline()

    def readlines(self) -> list[Any]:
        return self._file().readlines()

    def write(self, data: Any) -> None:
        self._file().write(data)

    def flush(self) -> None:
        self._file().flush()

    def seek(self, offset: int, whence: int = 0) -> None:
        self._file().seek(offset, whence)

    def tell(self) -> int:
        return self._file().tell()

    def size(self) -> int:
        """The file's size in bytes."""
        return stat(self.name).length

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None

    def __iter__(self) -> Iterator[Any]:
        return iter(self._file())

    def __enter__(self) -> GFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


Open = GFile
FastGFile = GFile


def exists(path: Any) -> bool:
    """Whether ``path`` exists, as ``tf.io.gfile.exists``."""
    return os.path.exists(_local(path))


def isdir(path: Any) -> bool:
    """Whether ``path`` is a directory."""
    return os.path.isdir(_local(path))


def makedirs(path: Any) -> None:
    """Creates ``path`` and its parents; no error if it exists (as ``tf.io.gfile.makedirs``)."""
    p = _local(path)
    try:
        os.makedirs(p, exist_ok=True)
    except OSError as e:
        raise _os_error(e, p) from None


def mkdir(path: Any) -> None:
    """Creates the directory ``path`` (its parent must exist).

    Raises:
      AlreadyExistsError: it exists. NotFoundError: no parent.
    """
    p = _local(path)
    try:
        os.mkdir(p)
    except OSError as e:
        raise _os_error(e, p) from None


def glob(pattern: Any) -> list[str]:
    """The paths matching ``pattern`` (``*``, ``?``, ``[...]``), sorted."""
    return sorted(_glob.glob(_local(pattern)))


def listdir(path: Any) -> list[str]:
    """The entries of a directory (names only), as ``tf.io.gfile.listdir``.

    Raises:
      NotFoundError: ``path`` is not a directory.
    """
    p = _local(path)
    if not os.path.isdir(p):
        raise errors.NotFoundError(None, None, f"Could not find directory {p}")
    return sorted(os.listdir(p))


def remove(path: Any) -> None:
    """Deletes the file ``path``.

    Raises:
      NotFoundError: it does not exist.
    """
    p = _local(path)
    try:
        os.remove(p)
    except OSError as e:
        raise _os_error(e, p) from None


def rmtree(path: Any) -> None:
    """Deletes a directory and everything in it.

    Raises:
      NotFoundError: it does not exist.
    """
    p = _local(path)
    if not os.path.exists(p):
        raise errors.NotFoundError(None, None, f"{p}; No such file or directory")
    try:
        shutil.rmtree(p)
    except OSError as e:
        raise _os_error(e, p) from None


def copy(oldpath: Any, newpath: Any, overwrite: bool = False) -> None:
    """Copies a file, as ``tf.io.gfile.copy``.

    Raises:
      AlreadyExistsError: ``newpath`` exists and not ``overwrite``.
      NotFoundError: ``oldpath`` does not exist.
    """
    src, dst = _local(oldpath), _local(newpath)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, f"file already exists: {dst}")
    try:
        shutil.copyfile(src, dst)
    except OSError as e:
        raise _os_error(e, src) from None


def rename(oldname: Any, newname: Any, overwrite: bool = False) -> None:
    """Renames a file or directory, as ``tf.io.gfile.rename``.

    Raises:
      AlreadyExistsError: ``newname`` exists and not ``overwrite``.
      NotFoundError: ``oldname`` does not exist.
    """
    src, dst = _local(oldname), _local(newname)
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, f"file already exists: {dst}")
    try:
        os.replace(src, dst)
    except OSError as e:
        raise _os_error(e, src) from None


class _FileStatistics:
    """``length`` (bytes), ``mtime_nsec``, ``is_directory``, as TF's ``FileStatistics``."""

    def __init__(self, st: os.stat_result, is_dir: bool) -> None:
        self.length = int(st.st_size)
        self.mtime_nsec = int(st.st_mtime_ns)
        self.is_directory = is_dir


def stat(path: Any) -> _FileStatistics:
    """The size, modification time and kind of ``path``.

    Raises:
      NotFoundError: it does not exist.
    """
    p = _local(path)
    try:
        return _FileStatistics(os.stat(p), os.path.isdir(p))
    except OSError as e:
        raise _os_error(e, p) from None


def walk(top: Any, topdown: bool = True, onerror: Any = None) -> Iterator[tuple[str, list[str], list[str]]]:
    """``(dirname, subdirs, files)`` for each directory under ``top``, as ``os.walk``."""
    yield from os.walk(_local(top), topdown=topdown, onerror=onerror)


Exists = exists
IsDirectory = isdir
MakeDirs = makedirs
MkDir = mkdir
Glob = glob
ListDirectory = listdir
Remove = remove
DeleteRecursively = rmtree
Copy = copy
Rename = rename
Stat = stat
Walk = walk
