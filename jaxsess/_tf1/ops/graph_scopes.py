"""Graph-building context managers of ``tf.compat.v1``: ``init_scope`` and
``container`` (``colocate_with`` is the graph's: :meth:`Graph.colocate_with`).

``init_scope`` clears the control dependencies of the enclosing scopes (TF1
graph mode: there is no function graph to lift out of). ``container`` is accepted: jaxsess keeps one set of
resources per session, so containers do not separate state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from jaxsess._core.graph._builder import executing_eagerly
from jaxsess._core.graph._graph import get_default_graph

__all__ = ["init_scope", "container"]


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """A scope free of the enclosing control dependencies, as ``tf.init_scope`` (TF1 graph mode)."""
    if executing_eagerly():
        yield
        return
    with get_default_graph().control_dependencies(None):
        yield



@contextlib.contextmanager
def container(container_name: str) -> Iterator[str]:
    """Accepted, as ``tf.compat.v1.container`` (resources are per session in jaxsess); yields the name."""
    yield container_name
