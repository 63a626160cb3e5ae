"""Max-pool values and gradients: ties, SAME/VALID remainders, overlapping windows, a small CNN."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(3)

x = tf.placeholder(tf.float32, [None, 5, 7, 2])
w = tf.constant(rng.randn(2, 5, 7, 2).astype(np.float32))
cases = {
    "valid_2": tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    "same_2": tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
    "same_3": tf.nn.max_pool(x, ksize=3, strides=3, padding="SAME"),
    "overlap_3s2": tf.nn.max_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
    "layers_pool": tf.layers.max_pooling2d(x, 2, 2, padding="same"),
    "rect_1x2": tf.nn.max_pool(x, [1, 1, 2, 1], [1, 1, 2, 1], "VALID"),
}
random_x = rng.randn(2, 5, 7, 2).astype(np.float32)
tied_x = np.zeros((2, 5, 7, 2), np.float32)
tied_x[0, 1, 1, 0] = 1.0
tied_x[1] = np.round(rng.randn(5, 7, 2)).astype(np.float32)  # many ties of small integers
with tf.Session() as sess:
    for name, pooled in cases.items():
        grad = tf.gradients(tf.reduce_sum(pooled * tf.reduce_mean(w)), x)[0]
        grad_relu = tf.gradients(tf.reduce_sum(tf.nn.max_pool(tf.nn.relu(x), pooled.op.get_attr("ksize"),
                                                            pooled.op.get_attr("strides"),
                                                            pooled.op.get_attr("padding"))), x)[0]
        RESULTS[name + "/shape"] = pooled.shape.as_list()
        for label, value in (("random", random_x), ("tied", tied_x)):
            out, g, gr = sess.run([pooled, grad, grad_relu], {x: value})
            RESULTS[f"{name}/{label}/value"] = out
            RESULTS[f"{name}/{label}/grad"] = g
            RESULTS[f"{name}/{label}/grad_relu"] = gr

# A small CNN trained a few steps from fixed weights: pooling gradients feed Adam.
tf.reset_default_graph()
images = tf.placeholder(tf.float32, [None, 8, 8, 1])
labels = tf.placeholder(tf.int64, [None])
k1 = tf.Variable(rng.randn(3, 3, 1, 4).astype(np.float32) * 0.5)
k2 = tf.Variable(rng.randn(3, 3, 4, 6).astype(np.float32) * 0.3)
dense_w = tf.Variable(rng.randn(2 * 2 * 6, 3).astype(np.float32) * 0.2)
h = tf.nn.max_pool(tf.nn.relu(tf.nn.conv2d(images, k1, [1, 1, 1, 1], "SAME")), [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
h = tf.nn.max_pool(tf.nn.relu(tf.nn.conv2d(h, k2, [1, 1, 1, 1], "SAME")), [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
logits = tf.matmul(tf.reshape(h, [-1, 2 * 2 * 6]), dense_w)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
batch_x = rng.rand(6, 8, 8, 1).astype(np.float32)
batch_y = rng.randint(0, 3, 6).astype(np.int64)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = []
    for _ in range(5):
        _, lv = sess.run([train, loss], {images: batch_x, labels: batch_y})
        losses.append(lv)
    RESULTS["cnn/losses"] = np.array(losses)
    RESULTS["cnn/k1"] = sess.run(k1)

TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
