"""TF1-style dtypes: ``jaxsess.float32``, ``int32``, ... as ``tf.dtypes.DType``.

Re-exports :mod:`jaxsess._core.dtypes`.
"""

from jaxsess._core.dtypes import *  # noqa: F403
