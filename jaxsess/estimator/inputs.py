"""Input functions, as ``tf.compat.v1.estimator.inputs``."""

from jaxsess._tf1.estimator._numpy_io import numpy_input_fn as numpy_input_fn
