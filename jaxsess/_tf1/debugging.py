"""``tf.debugging`` (TF1 names): run-time checks, aliases of :mod:`jaxsess._tf1.ops.check_ops`."""

from jaxsess._tf1.ops.check_ops import (  # noqa: E402
    Assert as Assert,
    assert_all_finite as assert_all_finite,
    assert_equal as assert_equal,
    assert_greater as assert_greater,
    assert_greater_equal as assert_greater_equal,
    assert_integer as assert_integer,
    assert_less as assert_less,
    assert_less_equal as assert_less_equal,
    assert_near as assert_near,
    assert_negative as assert_negative,
    assert_non_negative as assert_non_negative,
    assert_non_positive as assert_non_positive,
    assert_none_equal as assert_none_equal,
    assert_positive as assert_positive,
    assert_proper_iterable as assert_proper_iterable,
    assert_rank as assert_rank,
    assert_rank_at_least as assert_rank_at_least,
    assert_rank_in as assert_rank_in,
    assert_same_float_dtype as assert_same_float_dtype,
    assert_scalar as assert_scalar,
    assert_shapes as assert_shapes,
    assert_type as assert_type,
    check_numerics as check_numerics,
    is_numeric_tensor as is_numeric_tensor,
)
from jaxsess._tf1.ops.math_ops import is_finite as is_finite, is_inf as is_inf, is_nan as is_nan
from jaxsess._tf1.ops.math_special_ops import (  # noqa: E402
    is_non_decreasing as is_non_decreasing,
    is_strictly_increasing as is_strictly_increasing,
)

_LOG_DEVICE_PLACEMENT = [False]


def set_log_device_placement(enabled: bool) -> None:
    """Records the setting, as ``tf.debugging.set_log_device_placement``; graph sessions log
    placements when created with ``ConfigProto(log_device_placement=True)``."""
    _LOG_DEVICE_PLACEMENT[0] = bool(enabled)


def get_log_device_placement() -> bool:
    """What :func:`set_log_device_placement` recorded, as ``tf.debugging.get_log_device_placement``."""
    return _LOG_DEVICE_PLACEMENT[0]


def enable_check_numerics(stack_height_limit: int = 30, path_length_limit: int = 50) -> None:
    """Accepted without effect (``tf.debugging.enable_check_numerics`` makes every op check its
    outputs for NaN/Inf); in jaxsess put ``tf.check_numerics`` or ``tf.add_check_numerics_ops()``
    in the graph instead."""


def disable_check_numerics() -> None:
    """Accepted, as ``tf.debugging.disable_check_numerics``."""
