"""``tf.IndexedSlices``: a sparse set of rows of a dense tensor, as TF1's.

Re-exports :mod:`jaxsess._tf1.ops.indexed_slices`.
"""

from jaxsess._tf1.ops.indexed_slices import *  # noqa: F403
