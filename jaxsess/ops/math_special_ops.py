"""Element-wise math and bit ops TF1 tutorials reach for, as ``tf.compat.v1`` /
``tf.math`` / ``tf.math.special`` / ``tf.bitwise`` / ``tf.dtypes``:
``truncatediv``, ``truncatemod``, ``saturate_cast``, ``to_complex64``/``128``,
``bitcast``, ``bessel_i0``/``i1``, ``erfcinv``, ``nextafter``, ``xlog1py``,
``special.dawsn``/``expint``/``fresnel_cos``/``fresnel_sin``/``spence``,
``bitwise_or``/``xor``/``invert``/``left_shift``/``right_shift`` and
``unsorted_segment_sqrt_n``.

Re-exports :mod:`jaxsess._tf1.ops.math_special_ops`.
"""

from jaxsess._tf1.ops.math_special_ops import *  # noqa: F403
