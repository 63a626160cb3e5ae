"""``jaxsess.nn``: neural-network functions with TF1's names, as ``tf.compat.v1.nn``.

Only re-exports; the ops live in :mod:`jaxsess.ops.nn_ops`.
"""

from jaxsess.ops.nn_ops import (
    avg_pool as avg_pool,
)
from jaxsess.ops.nn_ops import (
    bias_add as bias_add,
)
from jaxsess.ops.nn_ops import (
    conv2d as conv2d,
)
from jaxsess.ops.nn_ops import (
    elu as elu,
)
from jaxsess.ops.nn_ops import (
    embedding_lookup as embedding_lookup,
)
from jaxsess.ops.nn_ops import (
    in_top_k as in_top_k,
)
from jaxsess.ops.nn_ops import (
    l2_loss as l2_loss,
)
from jaxsess.ops.nn_ops import (
    l2_normalize as l2_normalize,
)
from jaxsess.ops.nn_ops import (
    leaky_relu as leaky_relu,
)
from jaxsess.ops.nn_ops import (
    log_softmax as log_softmax,
)
from jaxsess.ops.nn_ops import (
    max_pool as max_pool,
)
from jaxsess.ops.nn_ops import (
    moments as moments,
)
from jaxsess.ops.nn_ops import (
    relu as relu,
)
from jaxsess.ops.nn_ops import (
    relu6 as relu6,
)
from jaxsess.ops.nn_ops import (
    selu as selu,
)
from jaxsess.ops.nn_ops import (
    sigmoid as sigmoid,
)
from jaxsess.ops.nn_ops import (
    sigmoid_cross_entropy_with_logits as sigmoid_cross_entropy_with_logits,
)
from jaxsess.ops.nn_ops import (
    softmax as softmax,
)
from jaxsess.ops.nn_ops import (
    softmax_cross_entropy_with_logits as softmax_cross_entropy_with_logits,
)
from jaxsess.ops.nn_ops import (
    softmax_cross_entropy_with_logits_v2 as softmax_cross_entropy_with_logits_v2,
)
from jaxsess.ops.nn_ops import (
    softplus as softplus,
)
from jaxsess.ops.nn_ops import (
    softsign as softsign,
)
from jaxsess.ops.nn_ops import (
    sparse_softmax_cross_entropy_with_logits as sparse_softmax_cross_entropy_with_logits,
)
from jaxsess.ops.nn_ops import (
    tanh as tanh,
)
from jaxsess.ops.nn_ops import (
    top_k as top_k,
)
from jaxsess.ops.nn_ops import (
    xw_plus_b as xw_plus_b,
)

avg_pool2d = avg_pool
max_pool2d = max_pool
