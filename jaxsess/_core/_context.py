"""Thread-local context stacks: default sessions and the execution mode;
and the process-wide set of in-process server targets.

Each thread has its own stacks, as in TF1: a default-session stack
(``Session.as_default``) and an execution-context stack whose entries are
graphs (``Graph.as_default``) or eager sessions (``EagerSession``). The
innermost execution entry decides whether op functions build graph nodes or
execute at once.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import jax

__all__ = [
    "VariableStore",
    "add_server_target",
    "current_eager_session",
    "execution_stack",
    "is_local_server_target",
    "session_stack",
]


@runtime_checkable
class VariableStore(Protocol):
    """How variables, the ``Saver``, ``Variable.load``, ``graph_util`` and
    export reach a session's variable state: ``Session`` and
    ``EagerSession`` implement it, and nothing below the sessions reads
    their private attributes.

    ``var`` is the key of a variable's value: the ``VariableV2`` operation in
    a graph session (``v.op``), the ``Variable`` itself in an eager session.
    """

    def read(self, var: Hashable) -> jax.Array:
        """The variable's current value: a session-owned ``jax.Array`` that
        later assignments and runs do not change (freed under the session's
        cleanup strategy, deleted at ``close()``; copy it to keep it).

        Raises:
          FailedPreconditionError: the variable has no value in this session.
          RuntimeError: the session is closed.
        """
        ...

    def assign(self, var: Hashable, value: jax.Array, inputs: object = ()) -> jax.Array:
        """Makes ``value`` (a ``jax.Array`` of the variable's dtype and shape)
        the variable's value, in one step that a signal cannot split. The
        session owns it from then on, unless it is (or shares a buffer with)
        one of ``inputs``, arrays the caller still owns: then a copy is taken.
        The value moves to where the variable lives (its device or sharding).

        Returns:
          The array now holding the value.

        Raises:
          RuntimeError: the session is closed.
        """
        ...

    def is_initialized(self, var: Hashable) -> bool:
        """Whether the variable has a value in this session."""
        ...


class _State(threading.local):
    def __init__(self) -> None:
        self.sessions: list[Any] = []
        self.execution: list[Any] = []  # Graph or EagerSession entries


_state = _State()


def session_stack() -> list[Any]:
    """This thread's default-session stack (innermost last)."""
    return _state.sessions


def execution_stack() -> list[Any]:
    """This thread's execution-context stack (innermost last)."""
    return _state.execution


def current_eager_session() -> Any:
    """The innermost eager session if it is the innermost execution entry, else None."""
    stack = _state.execution
    if stack:
        top = stack[-1]
        if getattr(top, "_is_eager", False):
            return top
    return None


# Targets of the in-process servers created so far (``tf.train.Server``,
# e.g. 'grpc://localhost:2222'): a ``Session(target)`` accepts them. Kept here,
# below the sessions and the train library, so that the session layer does
# not import ``jaxsess.train`` (whose package imports the session wrappers).
_server_targets: set[str] = set()
_server_lock = threading.Lock()


def add_server_target(target: str) -> None:
    """Records the ``target`` of an in-process server (it lives as long as the process, as TF1's)."""
    with _server_lock:
        _server_targets.add(target)


def is_local_server_target(target: str) -> bool:
    """Whether ``target`` is the ``Server.target`` of an in-process ``tf.train.Server``."""
    with _server_lock:
        return target in _server_targets
