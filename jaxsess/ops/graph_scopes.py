"""Graph-building context managers of ``tf.compat.v1``: ``init_scope``,
``colocate_with`` and ``container``.

``init_scope`` clears the control dependencies of the enclosing scopes (TF1
graph mode: there is no function graph to lift out of). ``colocate_with``
puts the ops built inside on the device requested for ``op`` (when one was;
XLA places the rest). ``container`` is accepted: jaxsess keeps one set of
resources per session, so containers do not separate state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from jaxsess.graph._graph import Operation, Tensor, get_default_graph
from jaxsess.ops._core import as_graph_tensor, executing_eagerly

__all__ = ["init_scope", "colocate_with", "container"]


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """A scope free of the enclosing control dependencies, as ``tf.init_scope`` (TF1 graph mode)."""
    if executing_eagerly():
        yield
        return
    with get_default_graph().control_dependencies(None):
        yield


@contextlib.contextmanager
def colocate_with(op: Any, ignore_existing: bool = False) -> Iterator[None]:
    """Ops built inside go on ``op``'s requested device, as ``tf.compat.v1.colocate_with``.

    Raises:
      TypeError: ``op`` is not a tensor, operation or variable (``None`` is allowed
        with ``ignore_existing=True``, as TF).
    """
    if op is None:
        if not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        yield
        return
    target = as_graph_tensor(op)
    if not isinstance(target, Tensor | Operation):
        raise TypeError(f"colocate_with: expected a Tensor, Operation or Variable, got {type(op).__name__}.")
    device = target.device
    if executing_eagerly() or not device:
        yield
        return
    with target.graph.device(device):
        yield


@contextlib.contextmanager
def container(container_name: str) -> Iterator[str]:
    """Accepted, as ``tf.compat.v1.container`` (resources are per session in jaxsess); yields the name."""
    yield container_name
