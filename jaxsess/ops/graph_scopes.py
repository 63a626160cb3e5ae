"""Graph-building context managers of ``tf.compat.v1``: ``init_scope`` and
``container`` (``colocate_with`` is the graph's: :meth:`Graph.colocate_with`).

Re-exports :mod:`jaxsess._tf1.ops.graph_scopes`.
"""

from jaxsess._tf1.ops.graph_scopes import *  # noqa: F403
