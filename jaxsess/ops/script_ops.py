"""Python functions as graph ops, as TF1's ``tf.py_func`` and ``tf.numpy_function``.

Re-exports :mod:`jaxsess._tf1.ops.script_ops`.
"""

from jaxsess._tf1.ops.script_ops import *  # noqa: F403
