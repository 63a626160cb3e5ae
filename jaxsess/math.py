"""``jaxsess.math``: element-wise math, reductions and related functions, as ``tf.math``.

Only re-exports; the ops live in :mod:`jaxsess.ops.math_ops` and
:mod:`jaxsess.ops.nn_ops`.
"""

from jaxsess.ops.math_ops import (
    abs as abs,  # noqa: A004
)
from jaxsess.ops.math_ops import (
    add as add,
)
from jaxsess.ops.math_ops import (
    add_n as add_n,
)
from jaxsess.ops.math_ops import (
    argmax as argmax,
)
from jaxsess.ops.math_ops import (
    argmin as argmin,
)
from jaxsess.ops.math_ops import (
    atan2 as atan2,
)
from jaxsess.ops.math_ops import (
    ceil as ceil,
)
from jaxsess.ops.math_ops import (
    cos as cos,
)
from jaxsess.ops.math_ops import (
    count_nonzero as count_nonzero,
)
from jaxsess.ops.math_ops import (
    cumprod as cumprod,
)
from jaxsess.ops.math_ops import (
    cumsum as cumsum,
)
from jaxsess.ops.math_ops import (
    divide as divide,
)
from jaxsess.ops.math_ops import (
    equal as equal,
)
from jaxsess.ops.math_ops import (
    erf as erf,
)
from jaxsess.ops.math_ops import (
    exp as exp,
)
from jaxsess.ops.math_ops import (
    expm1 as expm1,
)
from jaxsess.ops.math_ops import (
    floor as floor,
)
from jaxsess.ops.math_ops import (
    floordiv as floordiv,
)
from jaxsess.ops.math_ops import (
    floormod as floormod,
)
from jaxsess.ops.math_ops import (
    greater as greater,
)
from jaxsess.ops.math_ops import (
    greater_equal as greater_equal,
)
from jaxsess.ops.math_ops import (
    is_finite as is_finite,
)
from jaxsess.ops.math_ops import (
    is_inf as is_inf,
)
from jaxsess.ops.math_ops import (
    is_nan as is_nan,
)
from jaxsess.ops.math_ops import (
    less as less,
)
from jaxsess.ops.math_ops import (
    less_equal as less_equal,
)
from jaxsess.ops.math_ops import (
    log as log,
)
from jaxsess.ops.math_ops import (
    log1p as log1p,
)
from jaxsess.ops.math_ops import (
    logical_and as logical_and,
)
from jaxsess.ops.math_ops import (
    logical_not as logical_not,
)
from jaxsess.ops.math_ops import (
    logical_or as logical_or,
)
from jaxsess.ops.math_ops import (
    logical_xor as logical_xor,
)
from jaxsess.ops.math_ops import (
    maximum as maximum,
)
from jaxsess.ops.math_ops import (
    minimum as minimum,
)
from jaxsess.ops.math_ops import (
    mod as mod,
)
from jaxsess.ops.math_ops import (
    multiply as multiply,
)
from jaxsess.ops.math_ops import (
    negative as negative,
)
from jaxsess.ops.math_ops import (
    not_equal as not_equal,
)
from jaxsess.ops.math_ops import (
    pow as pow,  # noqa: A004
)
from jaxsess.ops.math_ops import (
    realdiv as realdiv,
)
from jaxsess.ops.math_ops import (
    reciprocal as reciprocal,
)
from jaxsess.ops.math_ops import (
    reduce_all as reduce_all,
)
from jaxsess.ops.math_ops import (
    reduce_any as reduce_any,
)
from jaxsess.ops.math_ops import (
    reduce_logsumexp as reduce_logsumexp,
)
from jaxsess.ops.math_ops import (
    reduce_max as reduce_max,
)
from jaxsess.ops.math_ops import (
    reduce_mean as reduce_mean,
)
from jaxsess.ops.math_ops import (
    reduce_min as reduce_min,
)
from jaxsess.ops.math_ops import (
    reduce_prod as reduce_prod,
)
from jaxsess.ops.math_ops import (
    reduce_sum as reduce_sum,
)
from jaxsess.ops.math_ops import (
    round as round,  # noqa: A004
)
from jaxsess.ops.math_ops import (
    rsqrt as rsqrt,
)
from jaxsess.ops.math_ops import (
    sigmoid as sigmoid,
)
from jaxsess.ops.math_ops import (
    sign as sign,
)
from jaxsess.ops.math_ops import (
    sin as sin,
)
from jaxsess.ops.math_ops import (
    sqrt as sqrt,
)
from jaxsess.ops.math_ops import (
    square as square,
)
from jaxsess.ops.math_ops import (
    squared_difference as squared_difference,
)
from jaxsess.ops.math_ops import (
    subtract as subtract,
)
from jaxsess.ops.math_ops import (
    tan as tan,
)
from jaxsess.ops.math_ops import (
    tanh as tanh,
)
from jaxsess.ops.math_ops import (
    truediv as truediv,
)
from jaxsess.ops.nn_ops import (
    in_top_k as in_top_k,
)
from jaxsess.ops.nn_ops import (
    l2_normalize as l2_normalize,
)
from jaxsess.ops.nn_ops import (
    log_softmax as log_softmax,
)
from jaxsess.ops.nn_ops import (
    softmax as softmax,
)
from jaxsess.ops.nn_ops import (
    softplus as softplus,
)
from jaxsess.ops.nn_ops import (
    softsign as softsign,
)
from jaxsess.ops.nn_ops import (
    top_k as top_k,
)

scalar_mul = multiply
