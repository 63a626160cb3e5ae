"""``BaseSession``: a scope that owns the device buffers it produces.

Shared by every session type (graph ``Session``, ``InteractiveSession``,
``EagerSession``). A session owns one :class:`OwnershipRegistry`; everything it
puts on a device — outputs of ``session.wrap``/``session.jit`` functions, of
eager ops, variable values, ``run`` results of a ``device_fetches=True`` graph
session — is adopted there: held weakly (freed when the last reference goes)
or strongly (``ON_SESSION_CLOSE``) under the session's
:class:`ResourceCleanupStrategy`, and deleted at ``close()`` at the latest.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import itertools
import sys
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Generic, NoReturn, ParamSpec, Protocol, TypeVar, overload

import jax
from jax import tree_util

from jaxsess._core import _context, _display
from jaxsess._core._config import ConfigProto, apply_gpu_options
from jaxsess._core.runtime import _compile_notice as _compile_notice
from jaxsess._core.runtime._native import hot as _c_hot  # the C hot path (_hot_wrap.c), or None
from jaxsess._core.runtime._resources import (
    OwnershipRegistry,
    ResourceCleanupStrategy,
    SessionStats,
    _concrete_types,
    is_concrete_array,
    jit_returns_input_buffers,
)

__all__ = [
    "BaseSession",
    "SessionJitDecorator",
    "SessionJitted",
    "get_default_session",
    "live_sessions",
    "CLOSED_SESSION_MESSAGE",
]

CLOSED_SESSION_MESSAGE = "Attempted to use a closed Session."
get_ident = threading.get_ident


class _NotGiven(enum.Enum):
    NOT_GIVEN = "NOT_GIVEN"


_NOT_GIVEN = _NotGiven.NOT_GIVEN  # session.jit(**kwargs) without a function: a decorator
_T = TypeVar("_T")
_S = TypeVar("_S", bound="BaseSession")
_P = ParamSpec("_P")
_R = TypeVar("_R")
_R_co = TypeVar("_R_co", covariant=True)


class SessionJitted(Protocol, Generic[_P, _R_co]):
    """What ``session.jit(fn)`` returns: ``session.wrap(jax.jit(fn))``, whose
    outputs the session owns. Called with ``fn``'s parameters, it returns
    ``fn``'s result.

    Attributes:
      jitted: the underlying ``jax.jit`` function (its compile cache is
        cleared when the session closes).
    """

    jitted: Any

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R_co: ...

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        """``jax.jit(fn).lower``: a ``jax.stages.Lowered`` (every attribute is
        its) whose ``.compile()`` returns a ``Compiled`` whose calls the
        session owns."""

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        """``jax.jit(fn).trace``: a ``jax.stages.Traced``, owned the same way
        through ``.lower().compile()``."""

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        """``jax.jit(fn).eval_shape``: the output's ``jax.ShapeDtypeStruct``s."""


_ids = itertools.count()
_live_sessions: weakref.WeakSet[BaseSession] = weakref.WeakSet()


class SessionJitDecorator(Protocol):
    """What ``session.jit(**jax_jit_kwargs)`` returns: a decorator, as ``jax.jit(**kwargs)``."""

    def __call__(self, fn: Callable[_P, _R], /) -> SessionJitted[_P, _R]: ...


def _closed_error() -> RuntimeError:
    return RuntimeError(CLOSED_SESSION_MESSAGE)


def _release_unclosed(registry: OwnershipRegistry, label: str | None, session_ref: Any = None) -> None:
    # Runs when a session is garbage-collected unclosed, or at interpreter exit
    # (weakref.finalize's atexit hook) for a session that is still alive.
    if registry.closed:
        return
    if session_ref is not None and session_ref() is not None:
        # Interpreter exit: nothing was garbage-collected, so no warning (as TF1).
        # Close blocking: the cleaner must be stopped and joined and the buffers
        # deleted before the interpreter finalizes (a thread inside XLA then aborts).
        registry.close()
        return
    # Garbage collection: this may run on any thread at any point, the
    # session's own cleaner thread included (holding its locks): never block.
    try:
        if label is not None and not sys.is_finalizing():  # None: a session the library keeps
            warnings.warn(
                f"{label} was garbage-collected without close(); releasing the "
                f"{registry.live_count()} device buffers it owned. "
                "Close sessions explicitly or use `with`.",
                ResourceWarning,
                stacklevel=2,
            )
    finally:
        registry.close_from_finalizer()


class BaseSession:
    """A scope that owns device memory; the base of every jaxsess session.

    Args:
      cleanup: a :class:`ResourceCleanupStrategy` (or its name); when the
        session deletes the buffers it owns. Default ``IN_BACKGROUND``.
      config: a :class:`ConfigProto`; its GPU options are applied to JAX if
        its backend has not started yet.
      memory_limit_bytes: optional budget in bytes of owned live buffers.
        When exceeded, the session runs ``gc.collect()`` (in the cleaner
        thread, or at the next safe point), so buffers held only by
        reference cycles are reclaimed before the device runs out.
      name: a label for ``repr`` and the cleaner thread.

    Raises:
      ValueError: for an unknown strategy (the message lists the valid ones)
        or a non-positive ``memory_limit_bytes``.

    The lifecycle follows ``tf.compat.v1.Session``: ``close()`` (idempotent),
    ``closed``, ``with`` (closes on exit, also when the block raises) and
    ``RuntimeError('Attempted to use a closed Session.')`` on use after close.
    A session garbage-collected unclosed emits a ``ResourceWarning`` and
    releases everything it owns.
    """

    _is_eager = False

    def __init__(
        self,
        *,
        cleanup: ResourceCleanupStrategy | str = ResourceCleanupStrategy.IN_BACKGROUND,
        config: ConfigProto | None = None,
        memory_limit_bytes: int | None = None,
        name: str | None = None,
    ) -> None:
        strategy = ResourceCleanupStrategy.coerce(cleanup)
        if config is not None and not isinstance(config, ConfigProto):
            raise TypeError(f"config must be a jaxsess.ConfigProto, got {type(config).__name__}.")
        apply_gpu_options(config)
        self._config = config if config is not None else ConfigProto()
        self._name = name or f"{type(self).__name__}-{next(_ids)}"
        self._registry = OwnershipRegistry(
            strategy, memory_limit_bytes=memory_limit_bytes, name=self._name
        )
        self._closed = False
        self._close_lock = threading.RLock()
        # Live session.jit wrappers, held weakly: one the caller drops is freed
        # with its compile cache; close() clears the caches of the others.
        self._jitted: weakref.WeakSet[Any] = weakref.WeakSet()
        self._default_cm: list[Any] = []
        _live_sessions.add(self)
        self._finalizer = weakref.finalize(
            self, _release_unclosed, self._registry, f"{type(self).__name__} {self._name!r}", weakref.ref(self)
        )

    def _close_quietly_on_gc(self) -> None:
        # For a session the library makes and keeps for the user (the Keras
        # backend's per-graph session, which TF never asks anyone to close):
        # garbage collection closes it as any session, without the ResourceWarning.
        self._finalizer.detach()
        self._finalizer = weakref.finalize(self, _release_unclosed, self._registry, None, weakref.ref(self))

    # -- properties ---------------------------------------------------------

    @property
    def strategy(self) -> ResourceCleanupStrategy:
        """The session's :class:`ResourceCleanupStrategy`."""
        return self._registry.strategy

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._closed

    @property
    def config(self) -> ConfigProto:
        return self._config

    @property
    def name(self) -> str:
        return self._name

    def _check_open(self) -> None:
        if self._closed:
            raise _closed_error()

    # -- ownership ----------------------------------------------------------

    def wrap(self, fn: Callable[_P, _R], /, *, name: str | None = None) -> Callable[_P, _R]:
        """``fn`` whose array outputs the session owns: any callable —
        ``jax.jit(f)``, ``eqx.filter_jit(f)``, ``pjit``, a Flax ``apply``, a
        ``jax.stages.Compiled``.

        Args:
          fn: the callable; any arguments, any pytree out.
          name: the producer named in ``stats().held`` (default: ``fn``'s
            ``__qualname__``).

        Returns:
          A function with ``fn``'s signature and result. Called with concrete
          arrays, every ``jax.Array`` leaf of its output is adopted (held by
          weak reference under ``IN_BACKGROUND``/``ON_SAFE_POINTS``, strongly
          under ``ON_SESSION_CLOSE``, deleted at ``close()`` at the latest)
          unless it is, or shares a device buffer with, one of the call's
          inputs: inputs are never owned. Non-array leaves (Equinox modules'
          functions, Flax modules, Python values) and tracers (a call inside
          ``jax.jit``/``grad``/``vmap``) pass through untouched. Each call is a
          safe point. ``__wrapped__`` is ``fn``. The session holds the wrapper
          weakly.

        Raises:
          TypeError: ``fn`` is not callable.
          RuntimeError: the session is closed (also when the result is called).
          ResourceExhaustedError: a call ran out of device memory (the
            message says what the session owns).
        """
        self._check_open()
        if not callable(fn):
            raise TypeError(f"wrap expects a callable, got {type(fn).__name__}: {fn!r:.80}")
        fresh = isinstance(fn, _FRESH_TYPES) and not jit_returns_input_buffers()
        wrapped: Callable[_P, _R] = self._wrap(fn, fn, _producer(fn, name), fresh)
        return wrapped

    def _wrap(self, fn: Callable[..., Any], like: Any, producer: str, fresh: bool, donates: bool = False) -> Any:
        # The wrapper of wrap/jit. fresh: fn's outputs are new arrays (a
        # jax.jit call): no input check. donates: fn donates its inputs.
        registry = self._registry
        own, own_one, concrete = registry.own_fresh, registry.own_one, _concrete_types
        adopt = registry.adopt_outputs
        note_donated = registry.note_donated
        safe_point = registry.safe_point
        enter, leave = registry.inflight.append, registry.inflight.remove
        session = self

        def call(*args: Any, **kwargs: Any) -> Any:
            me = get_ident()
            enter(me)  # close() waits for this call: its inputs stay valid
            try:
                if session._closed or registry._closed:  # (the registry alone at interpreter exit)
                    raise _closed_error()
                safe_point()
                try:
                    out = fn(*args, **kwargs)
                except Exception as e:
                    session._raise_translated(e)
                if fresh:
                    if type(out) in concrete:
                        own_one(out, producer)
                    else:
                        own(out, producer)
                else:  # the one adoption rule: never an input or an alias of one
                    adopt(out, (args, kwargs) if kwargs else args, producer=producer)
                if donates:
                    note_donated((args, kwargs))
            finally:
                leave(me)
            return out

        wrapper: Any = call
        if _c_hot is not None and fresh and not donates:
            # The C twin of `call` (_hot_wrap.c): positional calls run there,
            # owning outputs as own_one/own_fresh do; anything else calls `call`.
            wrapper = _c_hot.WrapCall(call, session, registry, fn, producer, tree_util.tree_leaves)
        with contextlib.suppress(AttributeError, TypeError):
            functools.update_wrapper(wrapper, like)
        wrapper.__wrapped__ = fn
        self._jitted.add(wrapper)
        return wrapper

    @overload
    def jit(self, fn: Callable[_P, _R], /, **jax_jit_kwargs: Any) -> SessionJitted[_P, _R]: ...

    @overload
    def jit(self, /, **jax_jit_kwargs: Any) -> SessionJitDecorator: ...

    def jit(self, fn: Callable[..., Any] | _NotGiven = _NOT_GIVEN, /, **jax_jit_kwargs: Any) -> Any:
        """``session.wrap(jax.jit(fn, **jax_jit_kwargs))``: ``jax.jit`` whose outputs the session owns.

        As ``jax.jit``, ``fn`` may be left out: ``@session.jit(static_argnums=1)``
        decorates.

        Args:
          fn: the function to compile; any pytree of arrays in and out.
          **jax_jit_kwargs: passed to ``jax.jit`` (``static_argnums``,
            ``donate_argnums``, ``in_shardings``, ...).

        Returns:
          A :class:`SessionJitted` with ``jax.jit`` semantics and the
          ownership of :meth:`wrap`. Called inside a JAX trace it is the plain
          jitted function: tracers are never adopted. ``.trace``, ``.lower``
          and ``.eval_shape`` are ``jax.jit``'s, except that what
          ``.lower(...).compile()`` (or ``.trace(...).lower().compile()``)
          returns is callable with owned outputs too. Arrays donated
          (``donate_argnums``) leave the session's account at the call. The
          session holds it weakly: dropping it frees it; its compile cache is
          cleared when the session closes.

        Raises:
          TypeError: ``fn`` is not callable.
          RuntimeError: the session is closed (also when the result is called).
          ResourceExhaustedError: a call ran out of device memory (the
            message says what the session owns).
        """
        self._check_open()
        if fn is _NOT_GIVEN:
            return functools.partial(self.jit, **jax_jit_kwargs)
        if not callable(fn):
            raise TypeError(
                f"jit expects a callable, got {type(fn).__name__}: {fn!r:.80}"
            )
        jitted = jax.jit(fn, **jax_jit_kwargs)
        donates = any(jax_jit_kwargs.get(k) not in (None, (), []) for k in ("donate_argnums", "donate_argnames"))
        producer = _producer(fn, None)
        wrapper = self._wrap(jitted, fn, producer, not jit_returns_input_buffers(), donates)
        session = self

        def lower(*args: Any, **kwargs: Any) -> Any:
            return _OwnedStage(jitted.lower(*args, **kwargs), session, producer)

        def trace(*args: Any, **kwargs: Any) -> Any:
            return _OwnedStage(jitted.trace(*args, **kwargs), session, producer)

        wrapper.lower = lower
        wrapper.trace = trace
        wrapper.eval_shape = jitted.eval_shape
        wrapper.jitted = jitted
        return wrapper

    def _translate(self, e: Exception) -> Exception:
        """The error to raise for an exception from a device call: the
        closed-session error when ``close()`` ran meanwhile (it deleted an
        input), ``ResourceExhaustedError`` for device out-of-memory, else ``e``."""
        if self._closed:
            return _closed_error()
        return self._registry.exhausted_error(e) or e

    def _raise_translated(self, e: Exception) -> NoReturn:
        """Raises the error of :meth:`_translate` for ``e`` (from ``e``), or
        ``e`` itself: what every device call of the session raises when it
        fails (the C hot paths hand their call's error here too)."""
        _compile_notice.finish()  # a compile that failed says nothing more
        err = self._translate(e)
        if err is e:
            raise e
        raise err from e

    def track(self, tree: _T) -> _T:
        """Adopts every ``jax.Array`` leaf of ``tree``; returns ``tree`` unchanged.

        Use it for arrays created outside the session that it should free.
        A safe point (``ON_SAFE_POINTS`` sweeps here).

        Raises:
          ValueError: an array is owned by another open session, or shares a
            device buffer with one that is (a buffer belongs to at most one
            session).
          RuntimeError: the session is closed.
        """
        self._check_open()
        self._registry.safe_point()
        for leaf in tree_util.tree_leaves(tree):
            if is_concrete_array(leaf):
                for other in list(_live_sessions):
                    if other is not self and not other._closed and other._registry.owns_buffer_of(leaf):
                        raise ValueError(
                            f"Cannot track array {_describe(leaf)}: it is owned by session "
                            f"{other._name!r}, or shares its device buffer with an array that "
                            "session owns; detach it there first."
                        )
        self._registry.adopt_outputs(tree, producer="track")
        return tree

    def detach(self, tree: _T) -> _T:
        """Hands ownership of every ``jax.Array`` leaf of ``tree`` back to the caller.

        Detached arrays are never deleted by the session and survive
        ``close()``. Returns ``tree`` unchanged.

        Raises:
          ValueError: a leaf is not owned by this session (the message names
            it by shape and dtype and its position in the tree).
          RuntimeError: the session is closed.
        """
        self._check_open()
        leaves_with_path = tree_util.tree_flatten_with_path(tree)[0]
        arrays = [(p, x) for p, x in leaves_with_path if isinstance(x, jax.Array)]
        for path, x in arrays:
            if not self._registry.owns(x):
                where = tree_util.keystr(path) or "<root>"
                raise ValueError(
                    f"Cannot detach array at {where} ({_describe(x)}): it is not owned by "
                    f"session {self._name!r}."
                )
        for _, x in arrays:
            self._registry.release(x)
        return tree

    def owns(self, array: object) -> bool:
        """Whether ``array`` is owned by this session."""
        return self._registry.owns(array)

    def sweep(self, *, collect: bool = False) -> int:
        """Frees every owned buffer nothing references, now, whatever the strategy.

        Under ``IN_BACKGROUND`` and ``ON_SAFE_POINTS`` such buffers are already
        freed (the session holds its arrays weakly): a sweep prunes their
        bookkeeping and that of arrays deleted by donation. Under
        ``ON_SESSION_CLOSE`` it frees the owned arrays nothing else
        references (the session holds the rest again).

        Args:
          collect: run ``gc.collect()`` first (frees buffers held only by
            reference cycles).

        Returns:
          The number of buffers found freed since the last prune.

        Raises:
          RuntimeError: the session is closed.
        """
        self._check_open()
        return self._registry.sweep(collect=collect)

    def stats(self, top: int = 10) -> SessionStats:
        """A :class:`SessionStats` snapshot. A safe point. Works after close too.

        Args:
          top: how many groups its ``held`` breakdown ("what holds memory":
            live owned arrays by producer, shape and dtype, the most bytes
            first) lists.
        """
        if not self._closed:
            if self.strategy is ResourceCleanupStrategy.ON_SAFE_POINTS:
                self._registry.sweep(collect=self._registry._pressure)
            else:
                self._registry.safe_point()
        st = self._registry.stats(top)
        return dataclasses.replace(st, bookkeeping_entries=st.bookkeeping_entries + len(self._jitted))

    # -- lifecycle ----------------------------------------------------------

    def close(self) -> None:
        """Closes the session: frees every buffer it owns. Idempotent.

        Stops and joins the cleaner thread (``IN_BACKGROUND``), waits for
        ``session.jit`` calls and eager ops in flight in other threads (they
        then raise the closed-session ``RuntimeError``), deletes every owned
        array — also those user code still references, whose later use
        raises JAX's "Array has been deleted" ``RuntimeError``, but not a
        buffer that an unowned alias (``jax.device_put`` to the same device)
        still uses — and drops the session's compiled executables and caches.
        Returns once the session is closed, also when another thread is
        closing it. As ``tf.compat.v1.Session.close``.
        """
        # Held for the whole close: a second caller returns once the session is
        # closed. On the cleaner thread (a __del__ run by the garbage collector
        # there) never wait: the closing thread may be joining this very thread.
        # Nor inside a session.jit call or eager op of this session (a callback):
        # the closing thread waits for that call to end.
        cleaner = self._registry.thread
        wait = threading.current_thread() is not cleaner and get_ident() not in self._registry.inflight
        if not self._close_lock.acquire(blocking=wait):
            self._closed = True
            self._registry.close()
            return
        try:
            if self._closed and self._registry.closed:
                return
            self._closed = True
            self._finalizer.detach()
            self._on_close()
            self._registry.close()
            for call in list(self._jitted):
                with contextlib.suppress(Exception):
                    getattr(call, "jitted", None) and call.jitted.clear_cache()
            self._jitted.clear()
        finally:
            self._close_lock.release()

    def _on_close(self) -> None:
        """Hook for subclasses: drop plans and state before buffers are freed."""

    def __enter__(self: _S) -> _S:
        self._check_open()
        cm = self.as_default()
        cm.__enter__()
        self._default_cm.append(cm)
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            if self._default_cm:
                self._default_cm.pop().__exit__(exc_type, exc, tb)
        finally:
            self.close()

    @contextlib.contextmanager
    def as_default(self) -> Iterator[BaseSession]:
        """Makes this the thread's default session inside a ``with`` block.

        Does not close the session on exit, as ``tf.compat.v1.Session.as_default``.
        """
        stack = _context.session_stack()
        stack.append(self)
        try:
            yield self
        finally:
            _remove_last(stack, self)

    def __repr__(self) -> str:
        """One line: type, name, state, strategy, live buffers and bytes, peak,
        devices (:func:`jaxsess._core._display.session_text`). Never sweeps."""
        return _display.session_repr(self)

    def _repr_html_(self) -> str:
        """Jupyter's display: the stats and per-device table as HTML. Never sweeps."""
        return _display.session_repr_html(self)


def _remove_last(stack: list[Any], item: Any) -> None:
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is item:
            del stack[i]
            return


def _describe(x: Any) -> str:
    try:
        return f"{x.dtype}{list(x.shape)}"
    except Exception:
        return type(x).__name__


def _producer(fn: Any, name: str | None) -> str:
    if name is not None:
        return str(name)
    for f in (fn, getattr(fn, "__wrapped__", None), getattr(fn, "func", None)):
        q = getattr(f, "__qualname__", None) or getattr(f, "__name__", None)
        if isinstance(q, str):
            return q
    return type(fn).__name__


class _OwnedStage:
    """A ``jax.stages`` object (``Traced``, ``Lowered``, ``Compiled``) of a
    ``session.jit`` function: every attribute is the stage's, except that
    ``.lower``/``.compile`` return owned stages again and calling a compiled
    one owns its outputs (as :meth:`BaseSession.wrap`)."""

    __slots__ = ("_call", "_producer", "_session", "_stage")

    def __init__(self, stage: Any, session: BaseSession, producer: str) -> None:
        self._stage = stage
        self._session = session
        self._producer = producer
        self._call: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stage, name)

    def __repr__(self) -> str:
        return f"<owned by {self._session.name!r}: {self._stage!r}>"

    def lower(self, *args: Any, **kwargs: Any) -> _OwnedStage:
        return _OwnedStage(self._stage.lower(*args, **kwargs), self._session, self._producer)

    def compile(self, *args: Any, **kwargs: Any) -> _OwnedStage:
        return _OwnedStage(self._stage.compile(*args, **kwargs), self._session, self._producer)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        call = self._call
        if call is None:
            call = self._call = self._session._wrap(
                self._stage, self._stage, self._producer, not jit_returns_input_buffers()
            )
        return call(*args, **kwargs)


def _fresh_types() -> tuple[type, ...]:
    # Callables whose array outputs are always new arrays: jax.jit's (C++)
    # function type and jax.stages.Compiled. Probed, not imported by a private name.
    types: list[type] = [jax.stages.Compiled]
    with contextlib.suppress(Exception):
        types.append(type(jax.jit(_identity)))
    return tuple(types)


def _identity(x: Any) -> Any:
    return x


_FRESH_TYPES = _fresh_types()


def live_sessions() -> list[BaseSession]:
    """Every session not yet garbage-collected (open or closed), in no order."""
    return list(_live_sessions)


def get_default_session() -> Any:
    """The innermost session made default in this thread, or ``None``.

    As ``tf.compat.v1.get_default_session``.
    """
    stack = _context.session_stack()
    return stack[-1] if stack else None

