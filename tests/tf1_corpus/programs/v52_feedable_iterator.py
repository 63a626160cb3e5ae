# Feedable iterators (train/validation switching), as in the TF1 "Importing Data" guide.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(1)
x_train = rng.uniform(-1, 1, size=(12, 2)).astype(np.float32)
y_train = (x_train[:, :1] * 3.0 - x_train[:, 1:] + 0.5).astype(np.float32)
x_val = rng.uniform(-1, 1, size=(5, 2)).astype(np.float32)
y_val = (x_val[:, :1] * 3.0 - x_val[:, 1:] + 0.5).astype(np.float32)

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(4).repeat()
val_ds = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(5)

handle = tf.placeholder(tf.string, shape=[])
iterator = tf.data.Iterator.from_string_handle(handle, train_ds.output_types, train_ds.output_shapes)
features, labels = iterator.get_next()
train_it = train_ds.make_one_shot_iterator()
val_it = val_ds.make_initializable_iterator()

w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.1], [0.2]]))
b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
pred = tf.matmul(features, w) + b
loss = tf.reduce_mean(tf.squared_difference(pred, labels))
train_op = tf.train.AdamOptimizer(0.1).minimize(loss)

RESULTS["handle_dtype"] = train_it.string_handle().dtype.name
RESULTS["next_shapes"] = [features.shape.as_list(), labels.shape.as_list()]
RESULTS["types"] = [t.name for t in tf.data.get_output_types(iterator)]
RESULTS["classes"] = [c.__name__ for c in tf.data.get_output_classes(train_ds)]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    train_handle, val_handle = sess.run([train_it.string_handle(), val_it.string_handle()])
    RESULTS["handle_type"] = type(train_handle).__name__
    losses, val_losses = [], []
    for epoch in range(3):
        for _ in range(3):
            _, l = sess.run([train_op, loss], feed_dict={handle: train_handle})
            losses.append(l)
        sess.run(val_it.initializer)
        while True:
            try:
                val_losses.append(sess.run(loss, feed_dict={handle: val_handle}))
            except tf.errors.OutOfRangeError:
                break
    RESULTS["losses"] = losses
    RESULTS["val_losses"] = val_losses
    RESULTS["w"] = sess.run(w)
    try:
        sess.run(features, feed_dict={handle: b"no such iterator"})
    except tf.errors.InvalidArgumentError as e:
        RESULTS["bad_handle"] = type(e).__name__
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
