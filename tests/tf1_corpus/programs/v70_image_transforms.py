"""Keras' image transforms on NumPy images: apply_affine_transform (rotation, shift, shear,
zoom; each fill mode; spline orders; channels first and last) and the random_* functions
under np.random.seed, as tf.keras.preprocessing.image (tf_keras)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-4}
image = tf.keras.preprocessing.image

rng = np.random.RandomState(3)
x_cf = rng.rand(3, 7, 9).astype(np.float32) * 255.0  # channels first: channel, row, col
x_cl = np.ascontiguousarray(x_cf.transpose(1, 2, 0))  # channels last

for mode in ["nearest", "constant", "reflect", "wrap"]:
    RESULTS["rotate_" + mode] = image.apply_affine_transform(x_cf, theta=30, fill_mode=mode, cval=5.0)
RESULTS["shift"] = image.apply_affine_transform(x_cf, tx=1.5, ty=-2.25)
RESULTS["shear"] = image.apply_affine_transform(x_cf, shear=20)
RESULTS["zoom"] = image.apply_affine_transform(x_cf, zx=0.8, zy=1.3)
RESULTS["all"] = image.apply_affine_transform(x_cf, theta=-15, tx=1, ty=2, shear=10, zx=1.1, zy=0.9)
RESULTS["all_order0"] = image.apply_affine_transform(x_cf, theta=-15, tx=1, ty=2, shear=10, zx=1.1, zy=0.9,
                                                     order=0)
RESULTS["all_order3"] = image.apply_affine_transform(x_cf, theta=-15, tx=1, ty=2, shear=10, zx=1.1, zy=0.9,
                                                     order=3)
RESULTS["channels_last"] = image.apply_affine_transform(x_cl, theta=25, tx=1, zx=1.2, row_axis=0, col_axis=1,
                                                        channel_axis=2)
RESULTS["swapped_axes"] = image.apply_affine_transform(x_cf, theta=25, tx=1, zx=1.2, row_axis=2, col_axis=1,
                                                       channel_axis=0)
RESULTS["identity"] = image.apply_affine_transform(x_cf)

np.random.seed(11)
RESULTS["random_rotation"] = image.random_rotation(x_cf, 40)
RESULTS["random_shift"] = image.random_shift(x_cf, 0.2, 0.3, fill_mode="reflect")
RESULTS["random_shear"] = image.random_shear(x_cf, 25, fill_mode="constant", cval=1.0)
RESULTS["random_zoom"] = image.random_zoom(x_cf, (0.7, 1.2))
RESULTS["random_zoom_identity"] = image.random_zoom(x_cf, (1, 1))
RESULTS["random_channel_shift"] = image.random_channel_shift(x_cf, 30.0)
RESULTS["random_rotation_cl"] = image.random_rotation(x_cl, 40, row_axis=0, col_axis=1, channel_axis=2,
                                                      interpolation_order=2)
RESULTS["after_draws"] = np.random.rand(3)

RESULTS["channel_shift"] = image.apply_channel_shift(x_cl, 40.0, channel_axis=2)
RESULTS["channel_shift_down"] = image.apply_channel_shift(x_cf, -70.0)
RESULTS["brightness"] = image.apply_brightness_shift(x_cl, 1.4)
RESULTS["brightness_unscaled"] = image.apply_brightness_shift(x_cl * 2.0 - 100.0, 0.6, scale=False)
RESULTS["brightness_in_range"] = image.apply_brightness_shift(x_cl, 0.5, scale=False)
np.random.seed(5)
RESULTS["random_brightness"] = image.random_brightness(x_cl, (0.5, 1.5))
RESULTS["random_brightness_unscaled"] = image.random_brightness(x_cl, [0.2, 0.4], scale=False)
