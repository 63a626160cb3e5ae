"""Keras' ImageDataGenerator on arrays: random augmentation under seeds (flow's batches via
next() and indexing, epochs and reshuffles), flow with labels / sample weights / extra inputs
/ validation subsets, fit's feature-wise statistics and ZCA, standardize, and a model trained
with fit and fit_generator on flow iterators, as tf_keras."""
import random

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-4, "atol": 1e-4}
ImageDataGenerator = tf.keras.preprocessing.image.ImageDataGenerator

rng = np.random.RandomState(4)
x = (rng.rand(10, 6, 7, 3) * 255).astype(np.float32)
y = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 1])
w = np.linspace(0.5, 1.5, 10).astype(np.float32)

aug = ImageDataGenerator(rotation_range=30, width_shift_range=0.2, height_shift_range=0.1, shear_range=10,
                         zoom_range=0.2, channel_shift_range=20.0, horizontal_flip=True, vertical_flip=True,
                         fill_mode="reflect", brightness_range=(0.7, 1.3), rescale=1.0 / 255)
it = aug.flow(x, y, batch_size=4, seed=3)
RESULTS["len"] = len(it)
batches = [next(it) for _ in range(4)]  # an epoch of 3 batches, then a reshuffled one
RESULTS["next_x"] = [b[0] for b in batches]
RESULTS["next_y"] = [b[1] for b in batches]
it2 = aug.flow(x, y, batch_size=4, seed=3, sample_weight=w)
b = it2[2]
RESULTS["getitem_last"] = list(b)
RESULTS["getitem_first"] = list(it2[0])
it2.on_epoch_end()
RESULTS["after_epoch_end"] = list(it2[0])
RESULTS["total_batches_seen"] = it2.total_batches_seen

np.random.seed(21)
RESULTS["unseeded_shuffle"] = [next(aug.flow(x, y, batch_size=3))[1] for _ in range(2)]
RESULTS["no_shuffle_y"] = aug.flow(x, y, batch_size=5, shuffle=False, seed=1)[1][1]

pixels = ImageDataGenerator(width_shift_range=2, height_shift_range=[1, 2, 3], fill_mode="constant", cval=-1.0)
RESULTS["pixel_shifts"] = next(pixels.flow(x, batch_size=3, seed=9, shuffle=False))
RESULTS["transform_params"] = {k: (None if v is None else float(v))
                               for k, v in sorted(aug.get_random_transform(x[0].shape, seed=5).items())}
RESULTS["random_transform"] = aug.random_transform(x[1], seed=6)
RESULTS["apply_transform"] = aug.apply_transform(x[2], {"theta": 12.0, "tx": 1.0, "flip_horizontal": True,
                                                        "channel_shift_intensity": 10.0})

# extra inputs pass through, labels and weights follow the same order
misc = np.arange(10.0).reshape(10, 1)
xb, yb, wb = next(ImageDataGenerator(horizontal_flip=True).flow((x, misc), y, batch_size=4, seed=2, sample_weight=w))
RESULTS["misc_batch"] = [xb[0], xb[1], yb, wb]
xb2, _ = ImageDataGenerator().flow((x, [misc, misc * 2]), y, batch_size=3, shuffle=False)[0]
RESULTS["misc_list"] = xb2

# validation subsets: the first 30% validates
split = ImageDataGenerator(validation_split=0.3)
RESULTS["val_y"] = split.flow(x, y, batch_size=10, shuffle=False, subset="validation")[0][1]
RESULTS["train_y"] = split.flow(x, y, batch_size=10, shuffle=False, subset="training")[0][1]
RESULTS["val_len"] = len(split.flow(x, y, batch_size=2, subset="validation"))
try:
    split.flow(x, np.sort(y), subset="training")
except ValueError as e:
    RESULTS["class_split_error"] = "different number of classes" in str(e)
RESULTS["ignore_class_split"] = len(split.flow(x, np.sort(y), subset="training", ignore_class_split=True))

# feature-wise statistics
feat = ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True, rescale=0.01)
feat.fit(x)
RESULTS["mean"] = feat.mean
RESULTS["std"] = feat.std
RESULTS["standardize"] = feat.standardize(x[:2].copy())
feat_aug = ImageDataGenerator(featurewise_center=True, rotation_range=20)
feat_aug.fit(x, augment=True, rounds=2, seed=4)
RESULTS["mean_augmented"] = feat_aug.mean
zca = ImageDataGenerator(featurewise_center=True, zca_whitening=True, zca_epsilon=0.1)
small = x[:, :3, :3, :]
zca.fit(small)
RESULTS["zca_matrix"] = zca.zca_whitening_matrix
RESULTS["zca_standardize"] = zca.standardize(small[:3].copy())
sample = ImageDataGenerator(samplewise_center=True, samplewise_std_normalization=True,
                            preprocessing_function=lambda im: im + 1.0)
RESULTS["samplewise"] = next(sample.flow(x, batch_size=2, shuffle=False))

cf = ImageDataGenerator(rotation_range=15, width_shift_range=0.3, featurewise_center=True,
                        data_format="channels_first")
x_cf = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
cf.fit(x_cf)
RESULTS["channels_first_mean"] = cf.mean
RESULTS["channels_first_batch"] = next(cf.flow(x_cf, batch_size=3, seed=8))

# training on the iterators
tf.set_random_seed(1)
model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(6, 7, 3)),
    tf.keras.layers.Dense(3, activation="softmax", kernel_initializer=tf.keras.initializers.Constant(0.01)),
])
model.compile(tf.keras.optimizers.SGD(0.1), "sparse_categorical_crossentropy", metrics=["accuracy"])
train = ImageDataGenerator(rescale=1.0 / 255, horizontal_flip=True, rotation_range=10)
h = model.fit(train.flow(x, y, batch_size=4, seed=1, shuffle=False), epochs=2, verbose=0, shuffle=False)
RESULTS["fit_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h.history.items())}
h2 = model.fit_generator(train.flow(x, y, batch_size=5, seed=2, shuffle=False, sample_weight=w),
                         steps_per_epoch=2, epochs=2, verbose=0, shuffle=False)
RESULTS["fit_generator_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h2.history.items())}
RESULTS["evaluate"] = [float(v) for v in model.evaluate(train.flow(x, y, batch_size=5, seed=3, shuffle=False),
                                                        verbose=0)]
RESULTS["predict"] = model.predict(ImageDataGenerator(rescale=1.0 / 255).flow(x, batch_size=4, shuffle=False))
RESULTS["weights"] = model.get_weights()

# validation on an iterator; batches in a shuffled order (Python's random, as Keras' enqueuer)
random.seed(3)
val_gen = ImageDataGenerator(rescale=1.0 / 255)
h3 = model.fit(train.flow(x, y, batch_size=3, seed=4, shuffle=False), epochs=2, verbose=0, shuffle=True,
               validation_data=val_gen.flow(x[:6], y[:6], batch_size=4, shuffle=False))
RESULTS["fit_validation_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h3.history.items())}
RESULTS["weights_after_validation"] = model.get_weights()
# uneven batches (4, 4, 2): the test loop over an iterator averages the loss over batches
RESULTS["evaluate_uneven"] = [float(v) for v in model.evaluate(
    ImageDataGenerator(rescale=1.0 / 255).flow(x, y, batch_size=4, shuffle=False), verbose=0)]
RESULTS["evaluate_generator_uneven"] = [float(v) for v in model.evaluate_generator(
    ImageDataGenerator(rescale=1.0 / 255).flow(x, y, batch_size=3, shuffle=False), steps=4)]

# the classic tutorial call: steps_per_epoch=len(x) / batch_size (a fraction rounds up), a
# shuffling seeded flow; and epochs shorter than the iterator, which go on where the last stopped
tut = ImageDataGenerator(rotation_range=20, width_shift_range=0.1, horizontal_flip=True, rescale=1.0 / 255)
random.seed(5)
h4 = model.fit_generator(tut.flow(x, y, batch_size=4, seed=6), steps_per_epoch=len(x) / 4, epochs=2, verbose=0)
RESULTS["tutorial_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h4.history.items())}
random.seed(6)
h5 = model.fit(tut.flow(x, y, batch_size=3, seed=7, shuffle=False), steps_per_epoch=3, epochs=3, verbose=0)
RESULTS["short_epochs_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h5.history.items())}
RESULTS["weights_final"] = model.get_weights()
