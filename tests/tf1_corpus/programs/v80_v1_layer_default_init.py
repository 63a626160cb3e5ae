"""Char-RNN and CNN tutorials under disable_v2_behavior(): tf.layers and RNN cells built without an initializer
draw TF's v1 glorot uniform from the graph seed (repeatable with set_random_seed), so the first losses match."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}
tf.set_random_seed(777)
x_one_hot = np.eye(5, dtype=np.float32)[[[0, 1, 0, 2, 3, 3]]]
y_data = [[1, 0, 2, 3, 3, 4]]
X = tf.placeholder(tf.float32, [None, 6, 5])
Y = tf.placeholder(tf.int32, [None, 6])
cell = tf.nn.rnn_cell.BasicLSTMCell(num_units=5, state_is_tuple=True)
outputs, _ = tf.nn.dynamic_rnn(cell, X, initial_state=cell.zero_state(1, tf.float32), dtype=tf.float32)
logits = tf.reshape(tf.layers.dense(tf.reshape(outputs, [-1, 5]), 5), [1, 6, 5])
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=Y, logits=logits))
train = tf.train.AdamOptimizer(learning_rate=0.1).minimize(loss)
prediction = tf.argmax(logits, axis=2)

img = tf.placeholder(tf.float32, [None, 6, 6, 1])
conv = tf.layers.conv2d(img, filters=2, kernel_size=[3, 3], padding="same", activation=tf.nn.relu)
pool = tf.layers.max_pooling2d(conv, pool_size=[2, 2], strides=2)
flat = tf.layers.dense(tf.reshape(pool, [-1, 18]), 3)
images = np.random.RandomState(1).rand(2, 6, 6, 1).astype(np.float32)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["kernels"] = {v.name: sess.run(v) for v in tf.global_variables() if "kernel" in v.name}
    log = []
    for i in range(6):
        l, _ = sess.run([loss, train], feed_dict={X: x_one_hot, Y: y_data})
        log.append([l, sess.run(prediction, feed_dict={X: x_one_hot})])
    RESULTS["log"] = log
    RESULTS["cnn"] = sess.run(flat, feed_dict={img: images})
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
