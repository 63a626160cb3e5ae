"""More image ops, as ``tf.compat.v1.image``: colour spaces (HSV, hue,
saturation, gamma), rotations, ``crop_and_resize``, bounding boxes
(``sample_distorted_bounding_box``, ``draw_bounding_boxes``,
``non_max_suppression``) and image metrics (``total_variation``, ``psnr``,
``ssim``, ``image_gradients``, ``sobel_edges``).

Re-exports :mod:`jaxsess._tf1.ops.image_ops2`.
"""

from jaxsess._tf1.ops.image_ops2 import *  # noqa: F403
