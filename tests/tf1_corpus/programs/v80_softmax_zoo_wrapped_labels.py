"""Animal-classifier tutorial: int labels [?, 1] one-hot encoded to [?, 1, 7], reshaped, then passed to the
v2 softmax cross-entropy wrapped in a list (labels [1, ?, 7] against logits [?, 7]: TF flattens both to rows);
a plain trainable step counter Variable(0) sits next to the model and minimize() ignores it."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
tf.set_random_seed(777)
rng = np.random.RandomState(7)
x_data = (rng.rand(30, 16) > 0.5).astype(np.float32)
y_data = rng.randint(0, 7, size=(30, 1)).astype(np.float32)
nb_classes = 7

X = tf.placeholder(tf.float32, [None, 16])
Y = tf.placeholder(tf.int32, [None, 1])
Y_one_hot = tf.one_hot(Y, nb_classes)
RESULTS["one_hot_shape"] = Y_one_hot.shape.as_list()
Y_one_hot = tf.reshape(Y_one_hot, [-1, nb_classes])
RESULTS["reshaped_shape"] = Y_one_hot.shape.as_list()

W = tf.Variable(tf.random_normal([16, nb_classes]), name="weight")
b = tf.Variable(tf.random_normal([nb_classes]), name="bias")
steps_done = tf.Variable(0, name="steps_done")
logits = tf.matmul(X, W) + b
hypothesis = tf.nn.softmax(logits)
per_example = tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=tf.stop_gradient([Y_one_hot]))
RESULTS["per_example_shape"] = per_example.shape.as_list()
cost = tf.reduce_mean(per_example)
optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(cost)
count_step = tf.assign_add(steps_done, 1)
grads = tf.train.GradientDescentOptimizer(0.1).compute_gradients(cost)
RESULTS["grad_is_none"] = [g is None for g, _ in grads]

deep = tf.reshape(logits, [-1, 2, nb_classes])
deep_loss = tf.nn.softmax_cross_entropy_with_logits(labels=Y_one_hot, logits=deep)
RESULTS["deep_shape"] = deep_loss.shape.as_list()

prediction = tf.argmax(hypothesis, 1)
correct = tf.equal(prediction, tf.argmax(Y_one_hot, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    log = []
    for step in range(31):
        _, _, loss, acc = sess.run([optimizer, count_step, cost, accuracy], feed_dict={X: x_data, Y: y_data})
        if step % 10 == 0:
            log.append([loss, acc])
    RESULTS["log"] = log
    RESULTS["steps_done"] = sess.run(steps_done)
    RESULTS["pred"] = sess.run(prediction, feed_dict={X: x_data[:6]})
    RESULTS["deep"] = sess.run(deep_loss, feed_dict={X: x_data, Y: y_data})
    try:
        sess.run(per_example, feed_dict={X: x_data, Y: y_data[:5]})
    except Exception as e:
        RESULTS["rows_differ"] = type(e).__name__
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
