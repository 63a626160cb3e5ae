"""The errors a TF1 beginner meets, their classes and messages: an unfed placeholder, a feed of the wrong
shape or dtype, an uninitialized variable, a fetch that is not a graph element, a tensor of another graph,
a closed session, a matmul of mismatched shapes fed at run time, a failed tf.Assert, an OutOfRange dataset."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
y = tf.matmul(x, w, name="y")
a = tf.placeholder(tf.float32, [None, None], name="a")
b = tf.placeholder(tf.float32, [None, None], name="b")
ab = tf.matmul(a, b, name="ab")
check = tf.Assert(tf.reduce_all(x > 0), [x], name="positive")
with tf.control_dependencies([check]):
    checked = tf.identity(x, name="checked")
other = tf.Graph()
with other.as_default():
    foreign = tf.constant(1.0, name="foreign")


def attempt(key, fn):
    try:
        fn()
        RESULTS[key] = "no error"
    except tf.errors.OpError as e:  # TF 2's message starts with the Python traceback of the node: class only
        RESULTS[key] = [type(e).__name__]
    except Exception as e:
        msg = str(e).splitlines()[0] if str(e) else ""
        RESULTS[key] = [type(e).__name__, msg[:90]]


sess = tf.Session()
attempt("uninitialized", lambda: sess.run(y, {x: np.ones((1, 3))}))
sess.run(tf.global_variables_initializer())
attempt("unfed", lambda: sess.run(y))
attempt("feed_shape", lambda: sess.run(y, {x: np.ones((2, 4))}))
attempt("feed_rank", lambda: sess.run(y, {x: np.ones(3)}))
try:
    sess.run(y, {x: np.array([["a", "b", "c"]])})
except ValueError as e:  # NumPy's message (TF's is NumPy's alone)
    RESULTS["feed_dtype"] = ["ValueError", "could not convert string to float" in str(e)]
attempt("fetch_none", lambda: sess.run(None))
attempt("fetch_int", lambda: sess.run(3))
attempt("fetch_foreign", lambda: sess.run(foreign))
attempt("fetch_name_missing", lambda: sess.run("nope:0"))
attempt("matmul_runtime", lambda: sess.run(ab, {a: np.ones((2, 3)), b: np.ones((4, 2))}))
attempt("assert", lambda: sess.run(checked, {x: -np.ones((1, 3))}))
attempt("feed_non_placeholder_ok", lambda: sess.run(y, {w: np.zeros((3, 2)), x: np.ones((1, 3))}))
attempt("feed_key_type", lambda: sess.run(y, {"x:0": np.ones((1, 3)), 7: 1}))
it = tf.data.make_one_shot_iterator(tf.data.Dataset.range(1))
nxt = it.get_next()
sess.run(nxt)
attempt("out_of_range", lambda: sess.run(nxt))
RESULTS["errors_hierarchy"] = [issubclass(tf.errors.OutOfRangeError, tf.errors.OpError),
                               issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError)]
sess.close()
attempt("closed", lambda: sess.run(y, {x: np.ones((1, 3))}))
