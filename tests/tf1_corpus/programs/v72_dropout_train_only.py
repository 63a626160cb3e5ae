"""A tutorial training loop with dropout that runs only the train op (sess.run(train_op)) most steps,
and fetches the loss every few: each run of the train op draws one dropout mask, so the masks the
loss runs see, and the trained weights, follow the same stream as TF's."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(11)
np.random.seed(3)

RESULTS = {}
data_x = np.random.rand(64, 12).astype(np.float32)
data_y = np.eye(4, dtype=np.float64)[np.random.randint(0, 4, 64)]  # one-hot labels as float64, as MNIST's
X = tf.placeholder(tf.float32, [None, 12])
Y = tf.placeholder(tf.float32, [None, 4])
keep_prob = tf.placeholder(tf.float32)
w1 = tf.Variable(tf.random_normal([12, 16], stddev=0.5))
b1 = tf.Variable(tf.zeros([16]))
w2 = tf.Variable(tf.random_normal([16, 4], stddev=0.5))
hidden = tf.nn.dropout(tf.nn.relu(tf.matmul(X, w1) + b1), keep_prob)
logits = tf.matmul(hidden, w2)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=Y))
train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
noise = tf.nn.dropout(tf.ones([2, 8]), rate=0.5)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(Y, 1)), tf.float32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    log = []
    for step in range(1, 7):
        batch = slice((step * 16) % 64, (step * 16) % 64 + 16)
        sess.run(train_op, {X: data_x[batch], Y: data_y[batch], keep_prob: 0.6})
        if step % 3 == 0:
            log.append(sess.run([loss, accuracy], {X: data_x[batch], Y: data_y[batch], keep_prob: 0.6}))
    RESULTS["log"] = log
    RESULTS["weights"] = sess.run([w1, w2])
    RESULTS["noise"] = sess.run(noise)
    RESULTS["eval"] = sess.run([loss, accuracy], {X: data_x, Y: data_y, keep_prob: 1.0})
# softmax_cross_entropy_with_logits casts labels of another dtype to the logits' dtype
lg = tf.constant([[1.0, 2.0, 0.5]])
xent = {"f64": tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant([[0.0, 1.0, 0.0]], tf.float64), logits=lg),
        "int": tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0, 0, 1]], logits=lg)}
RESULTS["xent_dtypes"] = [t.dtype.name for t in xent.values()]
with tf.Session() as sess:
    RESULTS["xent"] = sess.run(xent)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
