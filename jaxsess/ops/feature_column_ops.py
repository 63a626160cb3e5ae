"""The ops behind categorical feature columns: vocabulary lookup, string hashing and
feature crossing (host ops: strings live on the host) and ``Bucketize`` (device).

Re-exports :mod:`jaxsess._tf1.ops.feature_column_ops`.
"""

from jaxsess._tf1.ops.feature_column_ops import *  # noqa: F403
