"""``EagerSession``: a session that is also an execution context.

Inside ``with EagerSession() as s:`` the op functions (``jaxsess.constant``,
``jaxsess.add``, ``jaxsess.nn.relu``, ...) execute at once and return
``jax.Array``s owned by ``s``, as TensorFlow Java's ``Ops.create(eagerSession)``.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Hashable, Iterator
from typing import Any

import jax

from jaxsess._core import _context as _context, errors as errors
from jaxsess._core._config import ConfigProto
from jaxsess._core.graph._compile import compile_function
from jaxsess._core.graph._graph import Tensor
from jaxsess._core.graph._lowering import EagerStateContext
from jaxsess._core.runtime._resources import ResourceCleanupStrategy, jit_returns_input_buffers
from jaxsess._core.runtime._session import BaseSession, _closed_error, _remove_last, get_ident

__all__ = ["EagerSession"]

_MAX_OP_CACHE = 4096


class EagerSession(BaseSession):
    """An eager execution context that owns the arrays its ops produce.

    Args:
      cleanup: a :class:`ResourceCleanupStrategy` or its name (default
        ``IN_BACKGROUND``).
      config: a :class:`ConfigProto` (GPU options; device placement).
      memory_limit_bytes: optional budget of owned live bytes (see
        :class:`BaseSession`).
      name: a label.

    ``with EagerSession() as s:`` makes ``s`` the thread's default eager
    context (op functions run eagerly in it) and closes it on exit;
    ``s.as_default()`` does the first without closing. Every op call is a
    safe point. Graph-only ops (``placeholder``) raise ``RuntimeError``.
    """

    _is_eager = True
    _op_cache: dict[Any, Any]

    def __init__(
        self,
        *,
        cleanup: ResourceCleanupStrategy | str = ResourceCleanupStrategy.IN_BACKGROUND,
        config: ConfigProto | None = None,
        memory_limit_bytes: int | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(cleanup=cleanup, config=config, memory_limit_bytes=memory_limit_bytes, name=name)
        self._op_cache = {}  # (op, attrs) -> jax.jit of the op; dropped at close
        self._variables: dict[Hashable, jax.Array] = {}  # Variable -> its value (pinned in the registry)
        self._variables_lock = threading.Lock()

    @staticmethod
    def get_default() -> EagerSession | None:
        """The innermost active ``EagerSession`` of this thread, or ``None``."""
        for entry in reversed(_context.execution_stack()):
            if isinstance(entry, EagerSession):
                return entry
        return None

    @contextlib.contextmanager
    def as_default(self) -> Iterator[EagerSession]:
        """Makes this session the thread's default eager context (and default
        session) inside a ``with`` block, without closing it."""
        self._check_open()
        sessions = _context.session_stack()
        execution = _context.execution_stack()
        sessions.append(self)
        execution.append(self)
        try:
            yield self
        finally:
            _remove_last(execution, self)
            _remove_last(sessions, self)

    # -- eager execution ----------------------------------------------------

    def _execute(self, op_def: Any, inputs: list[Any], attrs: dict[str, Any]) -> Any:
        """Runs one registered op now; returns its output(s), owned by the session."""
        registry = self._registry
        me = get_ident()
        registry.inflight.append(me)  # close() waits for this op: its inputs stay valid
        try:
            if self._closed or registry._closed:
                raise _closed_error()
            registry.safe_point()
            if op_def.graph_only:
                raise RuntimeError(
                    f"{op_def.type} is a graph-only op and cannot run eagerly inside an "
                    "EagerSession; build it in a jaxsess.Graph and run it with a jaxsess.Session."
                )
            args = [self._to_array(x) for x in inputs]
            by_buffer = True  # an op run op by op may hand back a view of an input
            try:
                if op_def.stateful:
                    outs = op_def.impl(self._state_context(), *args, **attrs)
                else:
                    fn = self._compiled(op_def, attrs)
                    if fn is not None:
                        outs = fn(*args)
                        by_buffer = jit_returns_input_buffers()
                    else:
                        outs = op_def.impl(*args, **attrs)
            except Exception as e:
                self._raise_translated(e)  # closed meanwhile; device out of memory
            registry.adopt_outputs(outs, args, by_buffer=by_buffer, producer=op_def.type)
        finally:
            registry.inflight.remove(me)
        return outs

    def _compiled(self, op_def: Any, attrs: dict[str, Any]) -> Any:
        """This session's ``jax.jit`` of the op with its attributes bound, or
        None when the attributes are not hashable (then the op runs op-by-op).
        The cache belongs to the session and is dropped at close."""
        if not op_def.jittable:
            return None
        try:
            key = (op_def, _freeze(attrs))
        except TypeError:
            return None
        cache = self._op_cache
        fn = cache.get(key)
        if fn is None:
            if len(cache) >= _MAX_OP_CACHE:
                cache.pop(next(iter(cache)))
            fn = cache[key] = compile_function(_bound(*key))
        return fn

    def _on_close(self) -> None:
        self._op_cache = {}

    # -- the VariableStore interface (jaxsess._core._context) -------------------------------

    def read(self, var: Hashable) -> jax.Array:
        """The current value of an eager ``Variable``: the session-owned array
        itself (an assignment replaces it, never changes it in place).

        Raises:
          FailedPreconditionError: the variable has no value in this session.
        """
        v = self._variables.get(var)
        if v is None:
            name = getattr(var, "name", var)
            raise errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {name}")
        return v

    def assign(self, var: Hashable, value: jax.Array, inputs: object = ()) -> jax.Array:
        """Makes ``value`` the variable's value (see ``VariableStore.assign``):
        pinned when the session may own it, a copy when it is one of ``inputs``
        (the caller's arrays); the old value is freed once unreferenced.

        Returns:
          The array now holding the value.

        Raises:
          RuntimeError: the session is closed.
        """
        self._check_open()
        registry = self._registry
        with self._variables_lock:
            arr = registry.pin_output(value, inputs)
            old = self._variables.get(var)
            self._variables[var] = arr
            if old is not None and old is not arr:
                registry.unpin(old)  # freed once nothing references it
        return arr

    def is_initialized(self, var: Hashable) -> bool:
        """Whether the variable has a value in this session."""
        return var in self._variables

    def _to_array(self, x: Any) -> Any:
        if isinstance(x, jax.Array):
            return x
        if isinstance(x, Tensor):
            raise TypeError(
                f"Graph tensor {x.name!r} cannot be used in an EagerSession; "
                "evaluate it with Session.run first."
            )
        return jax.numpy.asarray(x)

    def _state_context(self) -> Any:
        ctx = getattr(self, "_eager_state", None)
        if ctx is None:
            ctx = self._eager_state = EagerStateContext(self)
        return ctx


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    hash(value)
    return value


@functools.lru_cache(maxsize=4096)
def _bound(op_def: Any, frozen_attrs: Any) -> Any:
    # The op's function with its attributes bound: one object per (op, attrs)
    # in the process, so that the jitted functions of successive sessions hit
    # JAX's tracing caches instead of tracing again. Holds no executable.
    return functools.partial(op_def.impl, **dict(frozen_attrs))
