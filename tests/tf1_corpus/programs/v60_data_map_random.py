"""Random ops in tf.data map functions with a graph seed: the function counts its own op seeds from 0 (TF's
function graph), elements draw one after another, each iterator initialisation starts the streams anew; data
augmentation (random flips, crops, brightness) as tutorials write it."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

tf.set_random_seed(9)
before = tf.random_uniform([1])
images = np.arange(5 * 4 * 4 * 1, dtype=np.float32).reshape(5, 4, 4, 1) / 80.0
labels = np.arange(5, dtype=np.int64)


def augment(image, label):
    image = tf.image.random_flip_left_right(image)
    image = tf.image.random_crop(image, [3, 3, 1])
    image = tf.image.random_brightness(image, max_delta=0.2)
    noise = tf.random_normal([2])
    return image, label, noise


ds = tf.data.Dataset.from_tensor_slices((images, labels)).map(augment).batch(2)
it = tf.data.make_initializable_iterator(ds)
batch = it.get_next()
one_shot = tf.data.make_one_shot_iterator(
    tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32) + tf.random_uniform([]))).get_next()
after = tf.random_uniform([1])

with tf.Session() as sess:
    for init in range(2):
        sess.run(it.initializer)
        for step in range(3):
            RESULTS[f"init{init}_batch{step}"] = sess.run(batch)
    RESULTS["one_shot"] = [float(sess.run(one_shot)) for _ in range(3)]
    RESULTS["outer"] = sess.run([before, after])
