"""``jaxsess.keras.utils``: as ``tf.keras.utils`` (``to_categorical``, ``normalize``, ``Sequence``,
``pad_sequences``, ``Progbar``, ``custom_object_scope``/``get_custom_objects``, and the image
helpers ``load_img``, ``img_to_array``, ``array_to_img``, ``save_img``).

Re-exports :mod:`jaxsess._tf1.keras.utils`.
"""

from jaxsess._tf1.keras.utils import *  # noqa: F403
