"""tf.random.stateless_* draw TF's numbers for a seed (Philox, TF's key and counter of the seed), and the
graph is TF's: StatelessRandomGetKeyCounter(seed) feeding the V2 ops, then the scale and shift."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
RESULTS = {}

seed = tf.placeholder(tf.int32, [2], name="seed")
outs = {
    "uniform": tf.random.stateless_uniform([3], seed=[1, 2]),
    "uniform_fed": tf.random.stateless_uniform([2, 5], seed),
    "uniform_range": tf.random.stateless_uniform([4], seed=[1, 2], minval=2.0, maxval=5.0),
    "uniform_half": tf.random.stateless_uniform([5], seed=[3, 4], dtype=tf.float16),
    "uniform_f64": tf.random.stateless_uniform([2, 3], seed=tf.constant([7, 8], tf.int64), dtype=tf.float64),
    "uniform_int": tf.random.stateless_uniform([6], seed=[1, 2], minval=3, maxval=70, dtype=tf.int32),
    "uniform_int64": tf.random.stateless_uniform([4], seed=[-5, 9], minval=-10, maxval=10**12, dtype=tf.int64),
    "full_int64": tf.random.stateless_uniform([3], seed=[1, 2], minval=None, maxval=None, dtype=tf.int64),
    "full_int32": tf.random.stateless_uniform([3], seed=[1, 2], minval=None, maxval=None, dtype=tf.int32),
    "normal": tf.random.stateless_normal([7], seed, mean=2.0, stddev=0.5),
    "normal_f64": tf.random.stateless_normal([5], seed=[3, 4], dtype=tf.float64),
    "truncated": tf.random.stateless_truncated_normal([9], seed=[3, 4], stddev=3.0),
    "truncated_f64": tf.random.stateless_truncated_normal([5], seed=[3, 4], dtype=tf.float64),
    "categorical": tf.random.stateless_categorical([[0.1, 0.5, 1.0], [2.0, 0.0, -1.0]], 6, seed=[1, 2]),
    "multinomial": tf.random.stateless_multinomial([[0.0, 1.0]], 5, seed, output_dtype=tf.int32),
    "named": tf.random.stateless_normal([2], seed=[1, 1], name="noise"),
}
with tf.Session() as sess:
    a = sess.run(outs, {seed: [1, 2]})
    b = sess.run(outs, {seed: [-3, 77]})
for k, t in outs.items():
    RESULTS[k] = a[k]
    RESULTS[k + "/meta"] = [t.name, t.dtype.name, t.shape.as_list()]
RESULTS["uniform_fed_other_seed"] = b["uniform_fed"]
RESULTS["normal_other_seed"] = b["normal"]

# the GraphDef: op types and how the nodes connect (Const nodes by type only)
gd = tf.get_default_graph().as_graph_def()
types = {n.name: n.op for n in gd.node}


def _src(inp):
    node = inp.split(":")[0]
    return "Const" if types[node] == "Const" else inp


for n in gd.node:
    if n.op != "Const" and n.op != "Placeholder" and not n.name.startswith("uniform_f64"):
        RESULTS["node/" + n.name] = [n.op, [_src(i) for i in n.input], sorted(k for k in n.attr if not k.startswith("_"))]

for name, fn in [("int_no_max", lambda: tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32)),
                 ("uint_bounds", lambda: tf.random.stateless_uniform([2], [1, 2], 0, 5, dtype=tf.uint32)),
                 ("int_normal", lambda: tf.random.stateless_normal([2], [1, 2], dtype=tf.int32)),
                 ("bad_seed", lambda: tf.random.stateless_normal([2], [1, 2, 3])),
                 ("bad_categorical_dtype", lambda: tf.random.stateless_categorical([[0.0]], 2, [1, 2], tf.float32))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
