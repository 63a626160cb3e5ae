"""The global step variable, as ``tf.compat.v1.train.get_or_create_global_step``.

The global step is a scalar integer variable named ``global_step`` in the
collections ``GraphKeys.GLOBAL_STEP`` and ``GraphKeys.GLOBAL_VARIABLES``, not
trainable. It is ``int64``, as TF1 (``int32`` inside an ``EagerSession``
without ``jax_enable_x64``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import Graph, GraphKeys, get_default_graph
from jaxsess._tf1.ops import init_ops as init_ops
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.ops.variable_scope import get_variable

__all__ = ["get_global_step", "create_global_step", "get_or_create_global_step", "global_step", "assert_global_step"]

GLOBAL_STEP_NAME = "global_step"


def get_global_step(graph: Graph | None = None) -> Any:
    """The global step of ``graph`` (default: the default graph), or ``None``.

    As ``tf.compat.v1.train.get_global_step``: the single member of
    ``GraphKeys.GLOBAL_STEP``, else the tensor ``'global_step:0'`` if one
    exists. Several members: ``None`` (TF1 logs an error and does the same).
    """
    graph = graph or get_default_graph()
    found = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(found) == 1:
        return found[0]
    if found:
        return None
    try:
        return graph.get_tensor_by_name(GLOBAL_STEP_NAME + ":0")
    except (KeyError, ValueError):
        return None


def assert_global_step(global_step_tensor: Any) -> None:
    """Checks that ``global_step_tensor`` is a scalar integer variable or tensor.

    Raises:
      TypeError: it is not a variable or tensor, not of an integer dtype, or
        not a scalar (TF's messages).
    """
    dtype = getattr(global_step_tensor, "dtype", None)
    shape = getattr(global_step_tensor, "shape", None)
    if dtype is None or shape is None:
        raise TypeError(f'Existing "global_step" must be a Variable or Tensor: {global_step_tensor!r:.80}.')
    if not np.issubdtype(_dtypes.as_dtype(dtype).np_dtype, np.integer):
        raise TypeError(f'Existing "global_step" does not have integer type: {dtype}')
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError(f'Existing "global_step" is not scalar: {shape}')


def create_global_step(graph: Graph | None = None) -> Variable:
    """Creates the global step variable (value 0), as ``tf.compat.v1.train.create_global_step``.

    Returns:
      A non-trainable scalar ``int64`` ``Variable`` made by ``get_variable``:
      named ``global_step`` under the current variable scope.

    Raises:
      ValueError: ``graph`` already has a global step.
    """
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    # As TF: through ``get_variable``, so the current variable scope prefixes the
    # name (``Model/global_step``) and its reuse flag applies.
    with graph.as_default(), graph.name_scope(None), graph.control_dependencies(None):
        step: Variable = get_variable(
            GLOBAL_STEP_NAME,
            shape=[],
            dtype=_dtypes.canonical(_dtypes.int64),
            initializer=init_ops.zeros_initializer(),
            trainable=False,
            collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP],
        )
        return step


def get_or_create_global_step(graph: Graph | None = None) -> Any:
    """The global step of ``graph``, created if missing, as ``tf.compat.v1.train.get_or_create_global_step``."""
    graph = graph or get_default_graph()
    step = get_global_step(graph)
    if step is None:
        step = create_global_step(graph)
    return step


def global_step(sess: Any, global_step_tensor: Any) -> int:
    """The value of ``global_step_tensor`` in ``sess`` as a Python int, as ``tf.compat.v1.train.global_step``."""
    return int(sess.run(global_step_tensor))
