"""``jaxsess.sparse``: sparse tensors and their ops, as ``tf.compat.v1.sparse``.

Only re-exports; see :mod:`jaxsess._tf1.ops.sparse_tensor` (the ``SparseTensor``
composite, how static shapes are handled) and :mod:`jaxsess._tf1.ops.sparse_ops`.
"""

from jaxsess._tf1.ops.sparse_host_ops import (
    sparse_fill_empty_rows as fill_empty_rows,
    sparse_maximum as maximum,
    sparse_minimum as minimum,
    sparse_split as split,
)
from jaxsess._tf1.ops.sparse_ops import (
    from_dense as from_dense,
    sparse_add as add,
    sparse_concat as concat,
    sparse_reduce_max as reduce_max,
    sparse_reduce_sum as reduce_sum,
    sparse_reorder as reorder,
    sparse_reshape as reshape,
    sparse_retain as retain,
    sparse_slice as slice,  # noqa: A004 - TF's name
    sparse_softmax as softmax,
    sparse_tensor_dense_matmul as matmul,
    sparse_tensor_dense_matmul as sparse_dense_matmul,
    sparse_tensor_to_dense as to_dense,
    sparse_transpose as transpose,
)
from jaxsess._tf1.ops.sparse_tensor import SparseTensor as SparseTensor, sparse_placeholder as placeholder

__all__ = [
    "SparseTensor", "add", "concat", "from_dense", "matmul", "placeholder", "reduce_max", "reduce_sum", "reorder", "reshape",
    "retain", "slice", "softmax", "sparse_dense_matmul", "to_dense", "transpose", "fill_empty_rows", "maximum",
    "minimum", "split", "eye", "expand_dims", "to_indicator", "segment_sum", "segment_mean", "segment_sqrt_n",
    "mask", "reduce_max_sparse", "reduce_sum_sparse", "reset_shape",
]
from jaxsess._tf1.ops.math_special_ops import (  # noqa: E402
    sparse_segment_mean as segment_mean,
    sparse_segment_sqrt_n as segment_sqrt_n,
    sparse_segment_sum as segment_sum,
)
from jaxsess._tf1.ops.sparse_surface_ops import (  # noqa: E402
    expand_dims as expand_dims,
    eye as eye,
    mask as mask,
    reduce_max_sparse as reduce_max_sparse,
    reduce_sum_sparse as reduce_sum_sparse,
    reset_shape as reset_shape,
    to_indicator as to_indicator,
)
