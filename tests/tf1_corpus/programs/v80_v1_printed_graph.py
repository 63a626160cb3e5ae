"""What a back-propagation-by-hand tutorial prints under disable_v2_behavior(): placeholders with unknown batch
dims print as (?, 1), TensorShape reprs list Dimensions, variables show float32_ref; the numbers follow."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}
tf.set_random_seed(777)
x_data = np.array([[1.0], [2.0], [3.0]], np.float32)
y_data = np.array([[1.0], [2.0], [3.0]], np.float32)
X = tf.placeholder(tf.float32, shape=[None, 1])
Y = tf.placeholder(tf.float32, shape=[None, 1])
W = tf.Variable(tf.truncated_normal([1, 1]))
b = tf.Variable(5.0)
hypothesis = tf.matmul(X, W) + b
diff = hypothesis - Y
RESULTS["printed"] = [str(X), str(W), str(b), str(diff), str(hypothesis)]
RESULTS["shapes"] = [str(X.shape), repr(X.shape), str(X.get_shape()), repr(W.shape), str(tf.TensorShape([None])),
                     repr(tf.TensorShape(None)), str(tf.TensorShape(None)), repr(tf.TensorShape([]))]
RESULTS["dims"] = [str(X.shape[0]), repr(X.shape[0]), str(X.shape[1]), repr(X.shape[1])]
RESULTS["tensor_repr"] = [str(d) for d in [tf.shape(X), tf.reduce_mean(diff)]]
d_l1 = diff
d_w = tf.matmul(tf.transpose(X), d_l1)
learning_rate = 0.1
step = [tf.assign(W, W - learning_rate * d_w), tf.assign(b, b - learning_rate * tf.reduce_mean(d_l1))]
RESULTS["step_dtypes"] = [s.dtype.base_dtype.name for s in step]
RESULTS["step_shapes"] = [str(s.shape) for s in step]
cost = tf.reduce_mean(tf.square(Y - hypothesis))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    log = []
    for i in range(30):
        stepped = sess.run([step, cost], feed_dict={X: x_data, Y: y_data})
        if i % 10 == 0:
            log.append(stepped)
    RESULTS["log"] = log
    RESULTS["final"] = sess.run([W, b])
