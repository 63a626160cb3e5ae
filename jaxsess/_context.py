"""Thread-local context stacks: default sessions and the execution mode.

Each thread has its own stacks, as in TF1: a default-session stack
(``Session.as_default``) and an execution-context stack whose entries are
graphs (``Graph.as_default``) or eager sessions (``EagerSession``). The
innermost execution entry decides whether op functions build graph nodes or
execute at once.
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["current_eager_session", "execution_stack", "session_stack"]


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
