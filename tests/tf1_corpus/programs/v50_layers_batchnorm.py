# MorvanZhou-style tf.layers CNN with batch_normalization + UPDATE_OPS and a training placeholder.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(2)
xs = rng.rand(8, 6, 6, 1).astype(np.float32)
ys = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 8)]

tf_x = tf.placeholder(tf.float32, [None, 6, 6, 1], name="x")
tf_y = tf.placeholder(tf.float32, [None, 3], name="y")
tf_is_train = tf.placeholder(tf.bool, None)
init = tf.constant_initializer(0.05)
conv1 = tf.layers.conv2d(tf_x, 4, 3, 1, "same", activation=None, use_bias=False, kernel_initializer=init,
                         name="conv1")
bn1 = tf.layers.batch_normalization(conv1, momentum=0.5, training=tf_is_train, name="bn1")
act1 = tf.nn.relu(bn1)
pool1 = tf.layers.max_pooling2d(act1, 2, 2)
avg = tf.layers.average_pooling2d(act1, pool_size=3, strides=1, padding="valid")
flat = tf.layers.flatten(pool1)
d1 = tf.layers.dense(flat, 8, tf.nn.tanh, kernel_initializer=tf.constant_initializer(0.02),
                     bias_initializer=tf.constant_initializer(0.1), name="d1")
bn2 = tf.layers.batch_normalization(d1, training=tf_is_train, center=False, scale=True, epsilon=1e-3)
drop = tf.layers.dropout(bn2, rate=0.5, training=False)
output = tf.layers.dense(drop, 3, kernel_initializer=init, name="out")
loss = tf.losses.softmax_cross_entropy(onehot_labels=tf_y, logits=output)
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train_op = tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True).minimize(loss)
accuracy = tf.metrics.accuracy(labels=tf.argmax(tf_y, axis=1), predictions=tf.argmax(output, axis=1))[1]
deconv = tf.layers.conv2d_transpose(act1, 2, 3, strides=2, padding="same", kernel_initializer=init)
conv1d = tf.layers.conv1d(tf.reshape(tf_x, [-1, 36, 1]), 2, 5, padding="valid", kernel_initializer=init)
sep = tf.layers.separable_conv2d(tf_x, 3, 3, depthwise_initializer=init, pointwise_initializer=init)

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    losses = []
    for step in range(3):
        _, l = sess.run([train_op, loss], {tf_x: xs, tf_y: ys, tf_is_train: True})
        losses.append(l)
    RESULTS["losses"] = losses
    RESULTS["eval"] = sess.run([loss, output, accuracy], {tf_x: xs, tf_y: ys, tf_is_train: False})
    mm = [v for v in tf.global_variables() if "moving" in v.name]
    RESULTS["moving"] = sess.run(mm)
    RESULTS["moving_names"] = [v.name for v in mm]
    RESULTS["others"] = sess.run([deconv, conv1d, sep, avg], {tf_x: xs[:2], tf_is_train: False})
RESULTS["n_update_ops"] = len(update_ops)
RESULTS["trainable"] = [v.name for v in tf.trainable_variables()]
RESULTS["shapes"] = [t.shape.as_list() for t in (conv1, pool1, flat, d1, output, deconv, conv1d, sep, avg)]
RESULTS["names"] = [t.name for t in (conv1, pool1, flat, d1, drop, output, deconv, avg)]
TOLERANCE = {"rtol": 2e-4, "atol": 2e-5}
