"""The rest of ``tf.compat.v1.image`` (:mod:`~jaxsess._tf1.ops.image_ops` holds
resizing, flips, crops and pads), as TF's ``image_ops_impl``: colour spaces
(HSV, hue, saturation, gamma), rotations, ``crop_and_resize``, bounding boxes
(``sample_distorted_bounding_box``, ``draw_bounding_boxes``,
``non_max_suppression``) and image metrics (``total_variation``, ``psnr``,
``ssim``, ``image_gradients``, ``sobel_edges``).

Re-exports :mod:`jaxsess._tf1.ops.image_ops_impl`.
"""

from jaxsess._tf1.ops.image_ops_impl import *  # noqa: F403
