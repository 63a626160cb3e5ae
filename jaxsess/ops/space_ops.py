"""Moving blocks of spatial positions into depth or batch and back, and image
patches, as ``tf.compat.v1``: ``space_to_depth``, ``depth_to_space``,
``space_to_batch_nd``, ``batch_to_space_nd``, ``space_to_batch``,
``batch_to_space``, ``extract_image_patches`` (``tf.image.extract_patches``).

Re-exports :mod:`jaxsess._tf1.ops.space_ops`.
"""

from jaxsess._tf1.ops.space_ops import *  # noqa: F403
