"""Keras' ImageDataGenerator.flow_from_directory over a folder of class subfolders written by the
program (PNG, JPEG, BMP, nested folders, other files ignored): class modes, color modes, resizing,
validation subsets, seeded augmentation, and a model trained on the iterator, as tf_keras."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-4, "atol": 1e-4}
image = tf.keras.preprocessing.image

root = tempfile.mkdtemp()
rng = np.random.RandomState(7)
for c, cls in enumerate(["cats", "dogs", "birds"]):
    os.makedirs(os.path.join(root, cls, "more"))
    for i in range(4 + c):
        h, w = 9 + i, 11 - c
        arr = rng.randint(0, 256, size=(h, w, 3)).astype(np.float32)
        arr[..., c] = 255.0 - 20 * i
        ext = ["png", "bmp", "png", "jpg"][i % 4]
        sub = "more" if i == 2 else ""
        image.save_img(os.path.join(root, cls, sub, f"img{i}.{ext}"), arr, scale=False)
    with open(os.path.join(root, cls, "notes.txt"), "w") as f:
        f.write("not an image")
with open(os.path.join(root, "README.txt"), "w") as f:
    f.write("top-level files are not classes")

plain = image.ImageDataGenerator(rescale=1.0 / 255)
it = plain.flow_from_directory(root, target_size=(8, 8), batch_size=4, shuffle=False)
RESULTS["class_indices"] = it.class_indices
RESULTS["filenames"] = it.filenames
RESULTS["classes"] = it.classes
RESULTS["samples_len_nclasses"] = [it.samples, len(it), it.num_classes]
RESULTS["filepaths"] = [os.path.relpath(p, root) for p in it.filepaths]
RESULTS["image_shape"] = list(it.image_shape)
RESULTS["categorical"] = list(it[0])
RESULTS["categorical_last"] = list(it[len(it) - 1])

two = plain.flow_from_directory(root, target_size=(5, 6), classes=["dogs", "cats"], class_mode="binary",
                                batch_size=20, shuffle=False, interpolation="bilinear")
RESULTS["binary"] = list(two[0])
RESULTS["sparse"] = list(plain.flow_from_directory(root, target_size=(4, 4), class_mode="sparse", batch_size=5,
                                                   seed=3)[1])
x_in, y_in = plain.flow_from_directory(root, target_size=(4, 5), class_mode="input", batch_size=3,
                                       shuffle=False)[1]
RESULTS["input_same"] = bool(np.array_equal(x_in, y_in))
RESULTS["input_x"] = x_in
RESULTS["none"] = plain.flow_from_directory(root, target_size=(3, 3), class_mode=None, batch_size=4,
                                            shuffle=False, color_mode="grayscale")[0]
RESULTS["rgba"] = plain.flow_from_directory(root, target_size=(3, 4), batch_size=2, shuffle=False,
                                            color_mode="rgba", interpolation="bicubic")[0][0]
RESULTS["keep_aspect"] = plain.flow_from_directory(root, target_size=(4, 4), batch_size=2, shuffle=False,
                                                   keep_aspect_ratio=True)[0][0]
RESULTS["default_size"] = plain.flow_from_directory(root, class_mode=None, batch_size=1, shuffle=False)[0].shape

split = image.ImageDataGenerator(validation_split=0.25)
val = split.flow_from_directory(root, target_size=(4, 4), subset="validation", shuffle=False)
train = split.flow_from_directory(root, target_size=(4, 4), subset="training", shuffle=False)
RESULTS["val_files"] = val.filenames
RESULTS["train_files"] = train.filenames
RESULTS["train_classes"] = train.classes

aug = image.ImageDataGenerator(rotation_range=25, width_shift_range=0.2, zoom_range=0.1, horizontal_flip=True,
                               brightness_range=(0.8, 1.2), rescale=1.0 / 255)
seeded = aug.flow_from_directory(root, target_size=(6, 6), batch_size=4, seed=5)
RESULTS["aug_next"] = [list(next(seeded)) for _ in range(5)]
RESULTS["aug_cf"] = next(image.ImageDataGenerator(rotation_range=25, data_format="channels_first")
                         .flow_from_directory(root, target_size=(5, 4), batch_size=3, seed=2))[0]

model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(2, 3, input_shape=(6, 6, 3), kernel_initializer=tf.keras.initializers.Constant(0.05)),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(3, activation="softmax", kernel_initializer=tf.keras.initializers.Constant(0.1)),
])
model.compile(tf.keras.optimizers.Adam(0.05), "categorical_crossentropy", metrics=["accuracy"])
data = aug.flow_from_directory(root, target_size=(6, 6), batch_size=5, seed=1, shuffle=False)
h = model.fit(data, epochs=3, verbose=0, shuffle=False)
RESULTS["fit_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h.history.items())}
RESULTS["weights"] = model.get_weights()

# the augmented images written to save_to_dir (names carry a random hash from np.random)
out_dir = tempfile.mkdtemp()
saver = image.ImageDataGenerator(rotation_range=30, horizontal_flip=True)
dir_batch = next(saver.flow_from_directory(root, target_size=(5, 5), batch_size=3, seed=4, save_to_dir=out_dir,
                                           save_prefix="aug", save_format="png"))
arr_batch = next(saver.flow(np.random.RandomState(1).rand(4, 5, 6, 3) * 255, batch_size=2, seed=2,
                            save_to_dir=out_dir, save_prefix="arr", save_format="bmp"))
RESULTS["saved_files"] = sorted(os.listdir(out_dir))
RESULTS["saved_batches"] = [dir_batch[0], dir_batch[1], arr_batch]
RESULTS["saved_pixels"] = [image.img_to_array(image.load_img(os.path.join(out_dir, f)))
                           for f in sorted(os.listdir(out_dir))]
RESULTS["after_save_draw"] = np.random.rand(2)
