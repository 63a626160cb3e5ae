# "Consuming NumPy arrays" (TF1 Importing Data guide): placeholders + initializable iterator,
# reinitializable iterator for train/validation, nested (tuple of dict) elements, from_generator
# with args, and an autoencoder-ish training loop with epochs.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(7)
train_x = rng.normal(size=(10, 4)).astype(np.float32)
train_y = rng.randint(0, 3, size=(10,)).astype(np.int64)
val_x = rng.normal(size=(4, 4)).astype(np.float32)
val_y = rng.randint(0, 3, size=(4,)).astype(np.int64)

features_placeholder = tf.placeholder(train_x.dtype, [None, 4])
labels_placeholder = tf.placeholder(train_y.dtype, [None])
dataset = tf.data.Dataset.from_tensor_slices(({"pixels": features_placeholder}, labels_placeholder))
dataset = dataset.map(lambda d, l: ({"pixels": d["pixels"] * 0.5}, l)).batch(4)
iterator = tf.data.Iterator.from_structure(dataset.output_types, dataset.output_shapes)
(feats, labels) = iterator.get_next()
init_op = iterator.make_initializer(dataset)
RESULTS["structure_types"] = str(dataset.output_types[0]["pixels"].name)
RESULTS["structure_shapes"] = [dataset.output_shapes[0]["pixels"].as_list(), dataset.output_shapes[1].as_list()]
RESULTS["classes"] = [dataset.output_classes[0]["pixels"].__name__, dataset.output_classes[1].__name__]

hidden = tf.layers.dense(feats["pixels"], 2, activation=tf.nn.tanh, kernel_initializer=tf.constant_initializer(0.3),
                         name="encoder")
recon = tf.layers.dense(hidden, 4, kernel_initializer=tf.constant_initializer(-0.2), name="decoder")
logits = tf.layers.dense(hidden, 3, kernel_initializer=tf.constant_initializer(0.1), name="head")
loss = tf.reduce_mean(tf.square(recon - feats["pixels"])) + tf.losses.sparse_softmax_cross_entropy(labels, logits)
correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.int32))
step = tf.train.RMSPropOptimizer(0.01).minimize(loss)


def gen(n, scale):
    for i in range(n):
        yield {"a": np.full([2], i * scale, np.float32), "b": [i] * (i + 1)}


gen_ds = tf.data.Dataset.from_generator(gen, {"a": tf.float32, "b": tf.int32},
                                        {"a": tf.TensorShape([2]), "b": tf.TensorShape([None])}, args=(3, 0.5))
gen_next = tf.data.make_one_shot_iterator(gen_ds.padded_batch(2, {"a": [2], "b": [None]})).get_next()
RESULTS["gen_shapes"] = {k: v.as_list() for k, v in gen_ds.output_shapes.items()}

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    history = []
    for epoch in range(2):
        sess.run(init_op, feed_dict={features_placeholder: train_x, labels_placeholder: train_y})
        total = 0.0
        while True:
            try:
                _, batch_loss = sess.run([step, loss])
                total += batch_loss
            except tf.errors.OutOfRangeError:
                break
        sess.run(init_op, feed_dict={features_placeholder: val_x, labels_placeholder: val_y})
        history.append((total, sess.run(correct)))
    RESULTS["history"] = history
    RESULTS["gen"] = [sess.run(gen_next), sess.run(gen_next)]
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
