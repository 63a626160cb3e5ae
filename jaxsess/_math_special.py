"""``tf.math.special``: special functions, as ``tf.compat.v1.math.special``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.math_special_ops`. TF's ``bessel_j0``/``j1``/``k0``/``k0e``/
``k1``/``k1e``/``y0``/``y1`` are missing (JAX has no kernels for them).
"""

from jaxsess._tf1.ops.math_special_ops import (
    bessel_i0 as bessel_i0,
    bessel_i0e as bessel_i0e,
    bessel_i1 as bessel_i1,
    bessel_i1e as bessel_i1e,
    dawsn as dawsn,
    expint as expint,
    fresnel_cos as fresnel_cos,
    fresnel_sin as fresnel_sin,
    spence as spence,
)

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "dawsn", "expint", "fresnel_cos", "fresnel_sin",
           "spence"]
