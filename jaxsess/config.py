"""``tf.config`` (as ``tf.compat.v1.config``): the devices JAX sees, in TF's words.

Re-exports :mod:`jaxsess._tf1.config`.
"""

from jaxsess._tf1.config import *  # noqa: F403
from jaxsess._tf1.config import (  # public names outside its __all__
    VirtualDeviceConfiguration as VirtualDeviceConfiguration,
    get_memory_growth as get_memory_growth,
    set_memory_growth as set_memory_growth,
)
