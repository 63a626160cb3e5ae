"""``GraphDef`` utilities, as ``tf.compat.v1.graph_util``: freezing a model
(``convert_variables_to_constants``) and pruning (``extract_sub_graph``).

Re-exports :mod:`jaxsess._tf1.graph_util`.
"""

from jaxsess._tf1.graph_util import *  # noqa: F403
