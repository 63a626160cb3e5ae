"""``arg_scope``: default keyword arguments for decorated functions, as tf-slim's
``arg_scope``/``add_arg_scope`` (``tf.contrib.framework.arg_scope``).

A stack of scopes per thread; each scope maps a function's key to the keyword
arguments that :func:`add_arg_scope`-decorated calls receive unless the call
passes them itself. Nested scopes extend (and override) the outer scope.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

__all__ = ["arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope", "arg_scoped_arguments",
           "arg_scope_func_key"]

F = TypeVar("F", bound=Callable[..., Any])


class _Stack(threading.local):
    def __init__(self) -> None:
        self.scopes: list[dict[str, dict[str, Any]]] = []


_STACK = _Stack()
_DECORATED: dict[str, tuple[str, ...]] = {}


def arg_scope_func_key(op: Any) -> str:
    """The key of ``op`` in a scope (its decorated original), as tf-slim."""
    return getattr(op, "_key_op", str(op))


def current_arg_scope() -> dict[str, dict[str, Any]]:
    """The innermost scope: function key -> keyword arguments (empty outside any scope)."""
    return _STACK.scopes[-1] if _STACK.scopes else {}


def has_arg_scope(func: Any) -> bool:
    """Whether ``func`` is decorated with :func:`add_arg_scope`."""
    return arg_scope_func_key(func) in _DECORATED


def arg_scoped_arguments(func: Any) -> tuple[str, ...]:
    """The keyword arguments (with defaults) of the decorated ``func``.

    Raises:
      ValueError: ``func`` is not decorated.
    """
    if not has_arg_scope(func):
        raise ValueError(f"{func!r} is not decorated with @add_arg_scope")
    return _DECORATED[arg_scope_func_key(func)]


@contextlib.contextmanager
def arg_scope(list_ops_or_scope: Sequence[Any] | dict[str, dict[str, Any]],
              **kwargs: Any) -> Iterator[dict[str, dict[str, Any]]]:
    """Sets default keyword arguments of the functions in ``list_ops_or_scope`` inside
    the ``with`` block, as ``tf.contrib.framework.arg_scope``.

    Args:
      list_ops_or_scope: a list/tuple of decorated functions, or a scope
        (the dict yielded by an earlier ``arg_scope``) to re-enter.
      **kwargs: the defaults (none when re-entering a scope).

    Yields:
      The scope: function key -> keyword arguments.

    Raises:
      TypeError: neither a list/tuple nor a dict.
      ValueError: a function not decorated with :func:`add_arg_scope`, or
        ``kwargs`` given with a scope dict.
    """
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a dictionary, kwargs must be empty.")
        scope = list_ops_or_scope.copy()
    else:
        if not isinstance(list_ops_or_scope, list | tuple):
            raise TypeError("list_ops_or_scope must either be a list/tuple or reused scope (i.e. dict)")
        scope = current_arg_scope().copy()
        for op in list_ops_or_scope:
            if not has_arg_scope(op):
                raise ValueError(f"{getattr(op, '__module__', '')}.{getattr(op, '__name__', op)} is not decorated "
                                 "with @add_arg_scope")
            key = arg_scope_func_key(op)
            scope[key] = {**scope.get(key, {}), **kwargs}
    _STACK.scopes.append(scope)
    try:
        yield scope
    finally:
        _STACK.scopes.pop()


def add_arg_scope(func: F) -> F:
    """Decorates ``func`` so that :func:`arg_scope` can set its keyword arguments, as tf-slim."""
    key = arg_scope_func_key(func)
    n_defaults = len(func.__defaults__ or ())
    code = func.__code__
    _DECORATED[key] = tuple(code.co_varnames[code.co_argcount - n_defaults:code.co_argcount]) + \
        tuple(code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount])

    @functools.wraps(func)
    def func_with_args(*args: Any, **kw: Any) -> Any:
        scope = current_arg_scope()
        if key in scope:
            kw = {**scope[key], **kw}
        return func(*args, **kw)

    func_with_args._key_op = key  # type: ignore[attr-defined]
    return func_with_args  # type: ignore[return-value]
