"""The TF1 surface: a client of :mod:`jaxsess._core`; the public modules re-export it.

Loading it fills TF's op-set table (``jaxsess._tf1.tf_opset``), which
``import_graph_def`` and ``import_meta_graph`` read.
"""

from jaxsess._tf1 import tf_opset as tf_opset
