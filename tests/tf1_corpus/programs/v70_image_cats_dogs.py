"""The Keras blog's small-data image classifier, shrunk: class folders of PNG files written by the
program, augmenting train generator (rescale, shear, zoom, horizontal flip), a plain validation
generator, a small convnet trained with fit_generator, evaluated and used to predict on directory
iterators, then trained on with validation_data, as TF1 + tf_keras.

Validation during the augmented training is left out: TF prepares the train batches in a thread
(seeded np.random draws) while the validation batches draw np.random in another, so TF itself
is not deterministic there; it is tested below with generators that do not augment."""
import os
import random
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 2e-4}
ImageDataGenerator = tf.keras.preprocessing.image.ImageDataGenerator

base = tempfile.mkdtemp()
rng = np.random.RandomState(0)
for split, count in [("train", 8), ("validation", 3)]:
    for label, cls in enumerate(["cats", "dogs"]):
        folder = os.path.join(base, split, cls)
        os.makedirs(folder)
        for i in range(count):
            img = rng.randint(0, 120, size=(20, 18, 3)).astype(np.uint8)
            if label:  # dogs have a bright square
                img[5:12, 4:11] = 230
            tf.keras.preprocessing.image.save_img(os.path.join(folder, f"{cls}.{i}.png"), img, scale=False)

train_datagen = ImageDataGenerator(rescale=1.0 / 255, shear_range=0.2, zoom_range=0.2, horizontal_flip=True)
test_datagen = ImageDataGenerator(rescale=1.0 / 255)
train_generator = train_datagen.flow_from_directory(os.path.join(base, "train"), target_size=(16, 16),
                                                    batch_size=4, class_mode="binary", seed=1)
validation_generator = test_datagen.flow_from_directory(os.path.join(base, "validation"), target_size=(16, 16),
                                                        batch_size=3, class_mode="binary", shuffle=False)

tf.set_random_seed(0)
init = tf.keras.initializers.glorot_uniform(seed=3)
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(4, (3, 3), input_shape=(16, 16, 3), kernel_initializer=init),
    tf.keras.layers.Activation("relu"),
    tf.keras.layers.MaxPooling2D(pool_size=(2, 2)),
    tf.keras.layers.Conv2D(4, (3, 3), kernel_initializer=init),
    tf.keras.layers.Activation("relu"),
    tf.keras.layers.MaxPooling2D(pool_size=(2, 2)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(8, kernel_initializer=init),
    tf.keras.layers.Activation("relu"),
    tf.keras.layers.Dense(1, kernel_initializer=init),
    tf.keras.layers.Activation("sigmoid"),
])
model.compile(loss="binary_crossentropy", optimizer="rmsprop", metrics=["accuracy"])
random.seed(2)
history = model.fit_generator(train_generator, steps_per_epoch=16 // 5, epochs=4, verbose=0)
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in sorted(history.history.items())}
RESULTS["class_indices"] = train_generator.class_indices
RESULTS["evaluate"] = [float(v) for v in model.evaluate_generator(validation_generator, steps=2)]
RESULTS["predict"] = model.predict_generator(validation_generator, steps=2)
RESULTS["weights"] = model.get_weights()

random.seed(3)
plain_train = test_datagen.flow_from_directory(os.path.join(base, "train"), target_size=(16, 16), batch_size=4,
                                               class_mode="binary", shuffle=False)
history2 = model.fit(plain_train, epochs=2, validation_data=validation_generator, verbose=0)
RESULTS["history_with_validation"] = {k: [float(v) for v in vals] for k, vals in sorted(history2.history.items())}
RESULTS["weights_after_validation"] = model.get_weights()
