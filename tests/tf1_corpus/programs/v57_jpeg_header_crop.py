"""ImageNet-style preprocessing (as in the TF official ResNet input pipeline): read the JPEG's
shape from its header, check the format, decode only a crop window."""
import io

import numpy as np
import tensorflow.compat.v1 as tf
from PIL import Image

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(0)
pixels = (rng.rand(9, 13, 3) * 255).astype(np.uint8)
buf = io.BytesIO()
Image.fromarray(pixels).save(buf, format="JPEG", quality=90)
jpeg_bytes = buf.getvalue()
buf = io.BytesIO()
Image.fromarray(pixels).save(buf, format="PNG")
png_bytes = buf.getvalue()

contents = tf.placeholder(tf.string, [])
shape = tf.image.extract_jpeg_shape(contents)
shape64 = tf.io.extract_jpeg_shape(contents, output_type=tf.int64)
is_jpeg = tf.io.is_jpeg(contents)
crop_window = tf.stack([shape[0] // 4, shape[1] // 4, shape[0] // 2, shape[1] // 2])
cropped = tf.image.decode_and_crop_jpeg(contents, crop_window, channels=3)
fixed = tf.io.decode_and_crop_jpeg(contents, [1, 2, 5, 6])
resized = tf.image.resize_images(tf.cast(cropped, tf.float32), [4, 4])

with tf.Session() as sess:
    s, s64, j, c, f, r = sess.run([shape, shape64, is_jpeg, cropped, fixed, resized], {contents: jpeg_bytes})
    RESULTS["shape"], RESULTS["shape64"], RESULTS["is_jpeg"] = s, s64, j
    RESULTS["cropped_shape"], RESULTS["fixed_shape"], RESULTS["resized_shape"] = list(c.shape), list(f.shape), \
        list(r.shape)
    RESULTS["dtypes"] = [c.dtype.name, f.dtype.name]
    RESULTS["png_is_jpeg"] = sess.run(is_jpeg, {contents: png_bytes})
    for t, feed in ((shape, png_bytes), (cropped, png_bytes)):
        try:
            sess.run(t, {contents: feed})
        except tf.errors.InvalidArgumentError as e:
            RESULTS.setdefault("errors", []).append(type(e).__name__)
    try:
        sess.run(tf.image.decode_and_crop_jpeg(contents, [5, 5, 10, 10]), {contents: jpeg_bytes})
    except tf.errors.InvalidArgumentError as e:
        RESULTS["bad_window"] = "Invalid JPEG data or crop window" in e.message

RESULTS["static"] = [shape.shape.as_list(), shape64.dtype.name, is_jpeg.shape.as_list(),
                     cropped.shape.as_list(), fixed.shape.as_list()]
