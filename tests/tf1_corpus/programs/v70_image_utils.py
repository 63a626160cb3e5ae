"""Keras' image helpers: array_to_img / img_to_array / save_img / load_img round trips
(RGB, RGBA, grayscale, channels_first, resizing with each interpolation, keep_aspect_ratio,
file objects), as tf.keras.utils and tf.keras.preprocessing.image."""
import io
import os
import pathlib
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
image = tf.keras.preprocessing.image

rng = np.random.RandomState(0)
rgb = rng.rand(6, 9, 3).astype(np.float32) * 4.0 - 1.0
rgba = rng.randint(0, 256, size=(5, 7, 4)).astype(np.float32)
gray = rng.randint(0, 256, size=(8, 6, 1)).astype(np.float32)
big_gray = rng.randint(0, 3000, size=(4, 5, 1)).astype(np.float32)

img = tf.keras.utils.array_to_img(rgb)
RESULTS["rgb_mode_size"] = [img.mode, list(img.size)]
RESULTS["rgb_scaled"] = tf.keras.utils.img_to_array(img)
RESULTS["rgb_unscaled"] = image.img_to_array(image.array_to_img(np.clip(rgb, 0, 1) * 200, scale=False))
RESULTS["rgba"] = image.img_to_array(image.array_to_img(rgba, scale=False))
RESULTS["gray_mode"] = image.array_to_img(gray, scale=False).mode
RESULTS["gray"] = image.img_to_array(image.array_to_img(gray, scale=False))
RESULTS["big_gray_mode"] = image.array_to_img(big_gray, scale=False).mode
RESULTS["big_gray"] = image.img_to_array(image.array_to_img(big_gray, scale=False), dtype="int32")
RESULTS["channels_first"] = image.img_to_array(
    image.array_to_img(rgb.transpose(2, 0, 1), data_format="channels_first"), data_format="channels_first")
RESULTS["gray_channels_first"] = image.img_to_array(image.array_to_img(gray, scale=False),
                                                    data_format="channels_first", dtype="float64")
RESULTS["constant_image"] = image.img_to_array(image.array_to_img(np.full((2, 3, 3), 7.0)))

d = tempfile.mkdtemp()
png = os.path.join(d, "a.png")
image.save_img(png, rgb)
RESULTS["load_png"] = image.img_to_array(image.load_img(png))
RESULTS["load_png_gray"] = image.img_to_array(image.load_img(png, color_mode="grayscale"))
RESULTS["load_png_rgba"] = image.img_to_array(image.load_img(pathlib.Path(png), color_mode="rgba"))
for interp in ["nearest", "bilinear", "bicubic", "box", "hamming", "lanczos"]:
    RESULTS["resize_" + interp] = image.img_to_array(image.load_img(png, target_size=(4, 5), interpolation=interp))
RESULTS["resize_up"] = image.img_to_array(image.load_img(png, target_size=(12, 11)))
RESULTS["keep_aspect"] = image.img_to_array(image.load_img(png, target_size=(3, 3), keep_aspect_ratio=True))
RESULTS["keep_aspect_wide"] = image.img_to_array(image.load_img(png, target_size=(2, 6), keep_aspect_ratio=True,
                                                                interpolation="bilinear"))

gray_png = os.path.join(d, "g.png")
tf.keras.utils.save_img(gray_png, gray, scale=False)
RESULTS["load_gray_as_rgb"] = tf.keras.utils.img_to_array(tf.keras.utils.load_img(gray_png))
RESULTS["load_gray"] = image.img_to_array(image.load_img(gray_png, color_mode="grayscale"))

buf = io.BytesIO()
image.save_img(buf, rgba, file_format="png", scale=False)
buf.seek(0)
RESULTS["bytesio_rgba"] = image.img_to_array(image.load_img(buf, color_mode="rgba"))

bmp = os.path.join(d, "c.bmp")
image.save_img(bmp, rgb)
RESULTS["bmp"] = image.img_to_array(image.load_img(bmp))
