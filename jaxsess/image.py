"""``jaxsess.image``: image ops with TF1's names, as ``tf.compat.v1.image``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.image_ops`.
"""

from jaxsess._tf1.ops.image_io_ops import (
    decode_and_crop_jpeg as decode_and_crop_jpeg,
    decode_bmp as decode_bmp,
    decode_gif as decode_gif,
    decode_image as decode_image,
    decode_jpeg as decode_jpeg,
    decode_png as decode_png,
    encode_jpeg as encode_jpeg,
    encode_png as encode_png,
    extract_jpeg_shape as extract_jpeg_shape,
    is_jpeg as is_jpeg,
)
from jaxsess._tf1.ops.image_ops import (
    ResizeMethod as ResizeMethod,
    adjust_brightness as adjust_brightness,
    adjust_contrast as adjust_contrast,
    central_crop as central_crop,
    convert_image_dtype as convert_image_dtype,
    crop_to_bounding_box as crop_to_bounding_box,
    flip_left_right as flip_left_right,
    flip_up_down as flip_up_down,
    pad_to_bounding_box as pad_to_bounding_box,
    per_image_standardization as per_image_standardization,
    random_brightness as random_brightness,
    random_contrast as random_contrast,
    random_crop as random_crop,
    random_flip_left_right as random_flip_left_right,
    random_flip_up_down as random_flip_up_down,
    resize as resize,
    resize_area as resize_area,
    resize_bicubic as resize_bicubic,
    resize_bilinear as resize_bilinear,
    resize_image_with_crop_or_pad as resize_image_with_crop_or_pad,
    resize_images as resize_images,
    resize_nearest_neighbor as resize_nearest_neighbor,
    rgb_to_grayscale as rgb_to_grayscale,
)
from jaxsess._tf1.ops.image_ops_impl import (
    adjust_gamma as adjust_gamma,
    adjust_hue as adjust_hue,
    adjust_saturation as adjust_saturation,
    crop_and_resize as crop_and_resize,
    draw_bounding_boxes as draw_bounding_boxes,
    grayscale_to_rgb as grayscale_to_rgb,
    hsv_to_rgb as hsv_to_rgb,
    image_gradients as image_gradients,
    non_max_suppression as non_max_suppression,
    non_max_suppression_padded as non_max_suppression_padded,
    psnr as psnr,
    random_hue as random_hue,
    random_saturation as random_saturation,
    resize_image_with_pad as resize_image_with_pad,
    rgb_to_hsv as rgb_to_hsv,
    rgb_to_yiq as rgb_to_yiq,
    rgb_to_yuv as rgb_to_yuv,
    rot90 as rot90,
    sample_distorted_bounding_box as sample_distorted_bounding_box,
    sobel_edges as sobel_edges,
    ssim as ssim,
    ssim_multiscale as ssim_multiscale,
    total_variation as total_variation,
    transpose_image as transpose_image,
    yiq_to_rgb as yiq_to_rgb,
    yuv_to_rgb as yuv_to_rgb,
)
from jaxsess._tf1.ops.space_ops import (
    extract_image_patches as extract_image_patches,
    extract_patches as extract_patches,
)

resize_with_crop_or_pad = resize_image_with_crop_or_pad  # TF2's name
transpose = transpose_image  # TF2's name
from jaxsess._tf1.ops.nms_ops import (  # noqa: E402
    combined_non_max_suppression as combined_non_max_suppression,
    non_max_suppression_overlaps as non_max_suppression_overlaps,
    non_max_suppression_with_scores as non_max_suppression_with_scores,
)
