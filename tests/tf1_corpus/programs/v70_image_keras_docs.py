"""The examples of Keras 2's ImageDataGenerator documentation, shrunk: feature-wise normalization
fitted on the training images and a "manual" loop that fits the model batch by batch on
flow(); then images and masks transformed together (two generators with one seed, zipped)
from class_mode=None directories into model.fit, as TF1 + tf_keras."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 2e-4}
ImageDataGenerator = tf.keras.preprocessing.image.ImageDataGenerator

np.random.seed(0)
x_train = np.random.rand(12, 8, 8, 3).astype(np.float32)
y_train = tf.keras.utils.to_categorical(np.arange(12) % 3, 3)

datagen = ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True, rotation_range=20,
                             width_shift_range=0.2, height_shift_range=0.2, horizontal_flip=True)
datagen.fit(x_train)
RESULTS["mean"] = datagen.mean
RESULTS["std"] = datagen.std

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(8, 8, 3)),
    tf.keras.layers.Dense(3, activation="softmax", kernel_initializer=tf.keras.initializers.Constant(0.02)),
])
model.compile(tf.keras.optimizers.SGD(0.05), "categorical_crossentropy")
losses = []
for e in range(2):
    batches = 0
    for x_batch, y_batch in datagen.flow(x_train, y_train, batch_size=5):
        h = model.fit(x_batch, y_batch, verbose=0)
        losses.append(h.history["loss"][0])
        batches += 1
        if batches >= len(x_train) / 5:
            # we need to break the loop by hand because the generator loops indefinitely
            break
RESULTS["manual_losses"] = [float(v) for v in losses]
RESULTS["manual_weights"] = model.get_weights()

# images and masks, transformed together
base = tempfile.mkdtemp()
for kind in ["images", "masks"]:
    os.makedirs(os.path.join(base, kind, "all"))
rng = np.random.RandomState(1)
for i in range(6):
    img = rng.randint(0, 256, size=(10, 10, 3)).astype(np.float32)
    mask = (img.mean(axis=2, keepdims=True) > 127) * 255.0
    tf.keras.preprocessing.image.save_img(os.path.join(base, "images", "all", f"{i}.png"), img, scale=False)
    tf.keras.preprocessing.image.save_img(os.path.join(base, "masks", "all", f"{i}.png"), mask, scale=False)

data_gen_args = dict(rotation_range=90, width_shift_range=0.1, height_shift_range=0.1, zoom_range=0.2)
image_datagen = ImageDataGenerator(rescale=1.0 / 255, **data_gen_args)
mask_datagen = ImageDataGenerator(rescale=1.0 / 255, **data_gen_args)
seed = 1
image_generator = image_datagen.flow_from_directory(os.path.join(base, "images"), target_size=(8, 8),
                                                    class_mode=None, batch_size=2, seed=seed)
mask_generator = mask_datagen.flow_from_directory(os.path.join(base, "masks"), target_size=(8, 8),
                                                  class_mode=None, color_mode="grayscale", batch_size=2, seed=seed)
first_images, first_masks = next(image_generator), next(mask_generator)
RESULTS["first_images"] = first_images
RESULTS["first_masks"] = first_masks
train_generator = zip(image_generator, mask_generator)
seg = tf.keras.Sequential([
    tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid", input_shape=(8, 8, 3),
                           kernel_initializer=tf.keras.initializers.Constant(0.1)),
])
seg.compile(tf.keras.optimizers.Adam(0.01), "binary_crossentropy")
h = seg.fit(train_generator, steps_per_epoch=3, epochs=2, verbose=0)
RESULTS["segmentation_loss"] = [float(v) for v in h.history["loss"]]
RESULTS["segmentation_weights"] = seg.get_weights()

# the same pairs as two-class softmax maps: categorical cross-entropy over the channels
image_generator2 = image_datagen.flow_from_directory(os.path.join(base, "images"), target_size=(8, 8),
                                                     class_mode=None, batch_size=3, seed=5)
mask_generator2 = mask_datagen.flow_from_directory(os.path.join(base, "masks"), target_size=(8, 8),
                                                   class_mode=None, color_mode="grayscale", batch_size=3, seed=5)
pairs = ((img, np.concatenate([1.0 - m, m], axis=-1)) for img, m in zip(image_generator2, mask_generator2))
seg2 = tf.keras.Sequential([
    tf.keras.layers.Conv2D(2, 3, padding="same", activation="softmax", input_shape=(8, 8, 3),
                           kernel_initializer=tf.keras.initializers.Constant(0.1)),
])
seg2.compile(tf.keras.optimizers.SGD(0.5), "categorical_crossentropy", metrics=["accuracy"])
h2 = seg2.fit(pairs, steps_per_epoch=2, epochs=2, verbose=0)
RESULTS["softmax_segmentation_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h2.history.items())}
RESULTS["softmax_segmentation_weights"] = seg2.get_weights()
