"""``jaxsess.initializers``: the initializers under TF1's short names, as
``tf.compat.v1.initializers`` (``tf.initializers.glorot_uniform()``, ...).

Only re-exports; the initializers live in :mod:`jaxsess._tf1.ops.init_ops`.
"""

from jaxsess._tf1.ops.init_ops import (
    Constant as constant,
    GlorotNormal as glorot_normal,
    GlorotUniform as glorot_uniform,
    Identity as identity,
    Ones as ones,
    Orthogonal as orthogonal,
    RandomNormal as random_normal,
    RandomUniform as random_uniform,
    TruncatedNormal as truncated_normal,
    UniformUnitScaling as uniform_unit_scaling,
    VarianceScaling as variance_scaling,
    Zeros as zeros,
    he_normal as he_normal,
    he_uniform as he_uniform,
    lecun_normal as lecun_normal,
    lecun_uniform as lecun_uniform,
)
from jaxsess._tf1.ops.state_ops import (
    global_variables_initializer as global_variables,
    local_variables_initializer as local_variables,
    variables_initializer as variables,
)
from jaxsess._tf1.ops.variable_checks import tables_initializer as tables_initializer

__all__ = [
    "uniform_unit_scaling",
    "constant", "glorot_normal", "glorot_uniform", "identity", "ones", "orthogonal", "random_normal",
    "random_uniform", "truncated_normal", "variance_scaling", "zeros", "he_normal", "he_uniform", "lecun_normal",
    "lecun_uniform", "global_variables", "local_variables", "variables", "tables_initializer",
]
