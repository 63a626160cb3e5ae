"""``jaxsess.keras.preprocessing.image``, as tf_keras' ``tf.keras.preprocessing.image`` (Keras 2):
``ImageDataGenerator`` and its iterators over arrays and directories, the PIL helpers and the
random transforms. NumPy/PIL/SciPy on the host, no graph ops; random draws come from NumPy's
global random state in tf_keras' order, so a seeded program gets tf_keras' images.

Re-exports :mod:`jaxsess._tf1.keras.preprocessing.image`.
"""

from jaxsess._tf1.keras.preprocessing.image import *  # noqa: F403
