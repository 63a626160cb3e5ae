"""``jaxsess.math``: element-wise math, reductions and related functions, as ``tf.math``.

Only re-exports; the ops live in :mod:`jaxsess.ops.math_ops`,
:mod:`jaxsess.ops.nn_ops`, :mod:`jaxsess.ops.linalg_ops` and :mod:`jaxsess.ops.segment_ops`.
"""

from jaxsess.ops.linalg_ops import (
    acos as acos,
    acosh as acosh,
    asin as asin,
    asinh as asinh,
    atan as atan,
    atanh as atanh,
    conj as conj,
    cosh as cosh,
    digamma as digamma,
    erfc as erfc,
    lgamma as lgamma,
    rint as rint,
    sinh as sinh,
)
from jaxsess.ops.math_extra_ops import (
    bessel_i0e as bessel_i0e,
    bessel_i1e as bessel_i1e,
    betainc as betainc,
    cumulative_logsumexp as cumulative_logsumexp,
    erfinv as erfinv,
    igamma as igamma,
    igammac as igammac,
    invert_permutation as invert_permutation,
    is_non_decreasing as is_non_decreasing,
    is_strictly_increasing as is_strictly_increasing,
    lbeta as lbeta,
    log_sigmoid as log_sigmoid,
    multiply_no_nan as multiply_no_nan,
    ndtri as ndtri,
    polygamma as polygamma,
    polyval as polyval,
    reciprocal_no_nan as reciprocal_no_nan,
    reduce_euclidean_norm as reduce_euclidean_norm,
    xdivy as xdivy,
    xlogy as xlogy,
    zeta as zeta,
)
from jaxsess.ops.math_ops import (
    abs as abs,  # noqa: A004
    add as add,
    add_n as add_n,
    argmax as argmax,
    argmin as argmin,
    atan2 as atan2,
    ceil as ceil,
    cos as cos,
    count_nonzero as count_nonzero,
    cumprod as cumprod,
    cumsum as cumsum,
    divide as divide,
    equal as equal,
    erf as erf,
    exp as exp,
    expm1 as expm1,
    floor as floor,
    floordiv as floordiv,
    floormod as floormod,
    greater as greater,
    greater_equal as greater_equal,
    is_finite as is_finite,
    is_inf as is_inf,
    is_nan as is_nan,
    less as less,
    less_equal as less_equal,
    log as log,
    log1p as log1p,
    logical_and as logical_and,
    logical_not as logical_not,
    logical_or as logical_or,
    logical_xor as logical_xor,
    maximum as maximum,
    minimum as minimum,
    mod as mod,
    multiply as multiply,
    negative as negative,
    not_equal as not_equal,
    pow as pow,  # noqa: A004
    realdiv as realdiv,
    reciprocal as reciprocal,
    reduce_all as reduce_all,
    reduce_any as reduce_any,
    reduce_logsumexp as reduce_logsumexp,
    reduce_max as reduce_max,
    reduce_mean as reduce_mean,
    reduce_min as reduce_min,
    reduce_prod as reduce_prod,
    reduce_sum as reduce_sum,
    round as round,  # noqa: A004
    rsqrt as rsqrt,
    sigmoid as sigmoid,
    sign as sign,
    sin as sin,
    sqrt as sqrt,
    square as square,
    squared_difference as squared_difference,
    subtract as subtract,
    tan as tan,
    tanh as tanh,
    truediv as truediv,
)
from jaxsess.ops.nn_impl import accumulate_n as accumulate_n
from jaxsess.ops.nn_ops import (
    in_top_k as in_top_k,
    l2_normalize as l2_normalize,
    log_softmax as log_softmax,
    softmax as softmax,
    softplus as softplus,
    softsign as softsign,
    top_k as top_k,
)
from jaxsess.ops.segment_ops import (
    bincount as bincount,
    confusion_matrix as confusion_matrix,
    segment_max as segment_max,
    segment_mean as segment_mean,
    segment_min as segment_min,
    segment_prod as segment_prod,
    segment_sum as segment_sum,
    unsorted_segment_max as unsorted_segment_max,
    unsorted_segment_mean as unsorted_segment_mean,
    unsorted_segment_min as unsorted_segment_min,
    unsorted_segment_prod as unsorted_segment_prod,
    unsorted_segment_sum as unsorted_segment_sum,
)
from jaxsess.ops.spectral_ops import angle as angle, imag as imag, real as real

scalar_mul = multiply
from jaxsess.ops.nn_impl import (  # noqa: E402
    div_no_nan as div_no_nan,
    reduce_std as reduce_std,
    reduce_variance as reduce_variance,
)

divide_no_nan = div_no_nan
from jaxsess import _math_special as special  # noqa: E402, F401 - tf.math.special
from jaxsess.ops.math_special_ops import (  # noqa: E402
    bessel_i0 as bessel_i0,
    bessel_i1 as bessel_i1,
    erfcinv as erfcinv,
    nextafter as nextafter,
    truncatediv as truncatediv,
    truncatemod as truncatemod,
    unsorted_segment_sqrt_n as unsorted_segment_sqrt_n,
    xlog1py as xlog1py,
)
from jaxsess.ops.nn_impl import zero_fraction as zero_fraction  # noqa: E402
