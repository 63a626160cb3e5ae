# CS20SI style: Huber loss with tf.where / tf.cond, assign ordering, stop_gradient, data with placeholder.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(7)
xs = rng.rand(30).astype(np.float32) * 10
ys = (3.0 * xs + 1.0 + rng.randn(30).astype(np.float32)).astype(np.float32)
ys[::7] += 20.0


def huber_loss(labels, predictions, delta=1.0):
    residual = tf.abs(predictions - labels)
    condition = tf.less(residual, delta)
    small_res = 0.5 * tf.square(residual)
    large_res = delta * residual - 0.5 * tf.square(delta)
    return tf.where(condition, small_res, large_res)


def huber_cond(label, prediction, delta=14.0):
    residual = tf.abs(prediction - label)

    def f1():
        return 0.5 * tf.square(residual)

    def f2():
        return delta * residual - 0.5 * tf.square(delta)

    return tf.cond(residual < delta, f1, f2)


X = tf.placeholder(tf.float32, name="X")
Y = tf.placeholder(tf.float32, name="Y")
w = tf.get_variable("weights", initializer=tf.constant(0.0))
b = tf.get_variable("bias", initializer=tf.constant(0.0))
Y_predicted = w * X + b
loss = huber_cond(Y, Y_predicted)
optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.001).minimize(loss)

xv = tf.placeholder(tf.float32, [None])
yv = tf.placeholder(tf.float32, [None])
hl = tf.reduce_mean(huber_loss(yv, w * xv + b))
hl_grad = tf.gradients(hl, [w, b])

counter = tf.Variable(1, name="counter")
inc = tf.assign_add(counter, 2)
with tf.control_dependencies([inc]):
    doubled = tf.assign(counter, counter * 2)
with tf.control_dependencies([doubled]):
    read = tf.identity(counter)

a = tf.Variable(3.0)
c = tf.stop_gradient(a * 2.0) + a * a
gc = tf.gradients(c, a)

data = tf.data.Dataset.from_tensor_slices((xv, yv)).batch(8)
it = data.make_initializable_iterator()
bx, by = it.get_next()
bl = tf.reduce_sum(huber_loss(by, w * bx + b, delta=2.0))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(3):
        total = 0.0
        for x_, y_ in zip(xs, ys):
            _, l = sess.run([optimizer, loss], feed_dict={X: x_, Y: y_})
            total += l
        RESULTS["epoch_%d" % epoch] = total / len(xs)
    RESULTS["wb"] = sess.run([w, b])
    RESULTS["hl"] = sess.run([hl, hl_grad], {xv: xs, yv: ys})
    RESULTS["read"] = sess.run(read)
    RESULTS["read2"] = sess.run(read)
    RESULTS["gc"] = sess.run(gc)
    sess.run(it.initializer, {xv: xs, yv: ys})
    bls = []
    while True:
        try:
            bls.append(sess.run(bl))
        except tf.errors.OutOfRangeError:
            break
    RESULTS["batch_losses"] = bls
RESULTS["shapes"] = [str(loss.shape), str(Y_predicted.shape), hl.shape.as_list()]
RESULTS["names"] = [loss.name, read.name]
TOLERANCE = {"rtol": 1e-4, "atol": 1e-4}
