"""The TF1 "Deep MNIST for experts" network as its tutorial writes it (truncated-normal weights, conv, max pool,
dropout with a keep_prob placeholder, Adam), seeded: TF's initial weights, dropout masks and losses."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
tf.set_random_seed(0)
rng = np.random.RandomState(0)
X = rng.rand(64, 28 * 28).astype(np.float32)
Y = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 64)]

def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1))

def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))

def conv2d(x, W):
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')

def max_pool_2x2(x):
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')

x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
x_image = tf.reshape(x, [-1, 28, 28, 1])
W_conv1 = weight_variable([5, 5, 1, 8])
b_conv1 = bias_variable([8])
h_pool1 = max_pool_2x2(tf.nn.relu(conv2d(x_image, W_conv1) + b_conv1))
W_conv2 = weight_variable([5, 5, 8, 16])
b_conv2 = bias_variable([16])
h_pool2 = max_pool_2x2(tf.nn.relu(conv2d(h_pool1, W_conv2) + b_conv2))
W_fc1 = weight_variable([7 * 7 * 16, 64])
b_fc1 = bias_variable([64])
h_fc1 = tf.nn.relu(tf.matmul(tf.reshape(h_pool2, [-1, 7 * 7 * 16]), W_fc1) + b_fc1)
keep_prob = tf.placeholder(tf.float32)
h_fc1_drop = tf.nn.dropout(h_fc1, keep_prob)
W_fc2 = weight_variable([64, 10])
b_fc2 = bias_variable([10])
y_conv = tf.matmul(h_fc1_drop, W_fc2) + b_fc2
cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y_conv))
train_step = tf.train.AdamOptimizer(1e-3).minimize(cross_entropy)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(y_conv, 1), tf.argmax(y_, 1)), tf.float32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out = []
    for i in range(6):
        b = slice((i * 16) % 64, (i * 16) % 64 + 16)
        _, loss_value = sess.run([train_step, cross_entropy], feed_dict={x: X[b], y_: Y[b], keep_prob: 0.5})
        out.append(float(loss_value))
    RESULTS["losses"] = out
    RESULTS["accuracy"] = sess.run(accuracy, {x: X, y_: Y, keep_prob: 1.0})
    RESULTS["fc2_bias"] = sess.run(b_fc2)
