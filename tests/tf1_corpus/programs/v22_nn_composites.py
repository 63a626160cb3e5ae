# Composite nn/math helpers tutorials use: zero_fraction summaries, swish/crelu, weighted losses, sorting, moments.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

rng = np.random.RandomState(8)
xv = rng.normal(0, 1, (3, 4)).astype(np.float32)
xv[0, 1] = 0.0
xv[2, 3] = 0.0
x = tf.placeholder(tf.float32, [None, 4], name="x")
relu = tf.nn.relu(x)
zf = tf.nn.zero_fraction(relu)
sw = tf.nn.swish(x)
cr = tf.nn.crelu(x)
labels = tf.constant((rng.rand(3, 4) > 0.5).astype(np.float32))
wce = tf.nn.weighted_cross_entropy_with_logits(targets=labels, logits=x, pos_weight=3.0)
wce2 = tf.nn.weighted_cross_entropy_with_logits(labels=labels, logits=x, pos_weight=0.5, name="wce")
counts_v = tf.constant(rng.poisson(2.0, (3, 4)).astype(np.float32))
lpl = tf.nn.log_poisson_loss(counts_v, x)
lpl_full = tf.nn.log_poisson_loss(counts_v, x, compute_full_loss=True)
c, m_ss, v_ss, _ = tf.nn.sufficient_statistics(tf.constant(xv), [0])
mean, var = tf.nn.normalize_moments(c, m_ss, v_ss, None)
c2, m2, v2, s2 = tf.nn.sufficient_statistics(tf.constant(xv), [0, 1], shift=0.5, keep_dims=True)
mean2, var2 = tf.nn.normalize_moments(c2, m2, v2, s2)
vals = tf.constant([[3., 1., 2., 1.], [0., -1., 5., 5.]])
srt = tf.sort(vals)
srt_d = tf.sort(vals, direction="DESCENDING")
srt0 = tf.sort(vals, axis=0)
args = tf.argsort(vals)
args_d = tf.argsort(vals, direction="DESCENDING", stable=True)
std = tf.math.reduce_std(x)
var_1 = tf.math.reduce_variance(x, 1)
var_k = tf.math.reduce_variance(x, 0, keepdims=True)
dnn = tf.div_no_nan(tf.constant([1., 2., 0.]), tf.constant([0., 4., 0.]))
bg = tf.batch_gather(tf.constant(xv), tf.constant([[0, 2], [1, 1], [3, 0]]))
cban = tf.clip_by_average_norm(x, 0.1)
tables = tf.tables_initializer()
grads = tf.gradients(tf.reduce_sum(sw) + tf.reduce_sum(cr) + tf.reduce_sum(wce) + tf.reduce_sum(std)
                     + tf.reduce_sum(lpl_full), x)[0]

RESULTS["names"] = [zf.name, cr.name, wce.name, wce2.name, m_ss.name, v_ss.name, mean.name, var.name,
                    mean2.name, std.name, dnn.name, cban.name, tables.name, tables.type]
RESULTS["shapes"] = [t.shape.as_list() for t in (zf, sw, cr, wce, lpl, m_ss, mean2, srt, args, std, var_1, var_k, bg)]
RESULTS["dtypes"] = [t.dtype.name for t in (zf, args, c, dnn)]
RESULTS["s2_is_shift"] = s2 is not None
with tf.Session() as sess:
    sess.run(tables)
    out = sess.run({"zf": zf, "sw": sw, "cr": cr, "wce": wce, "wce2": wce2, "lpl": lpl, "lpl_full": lpl_full,
                    "std": std, "var_1": var_1, "var_k": var_k, "cban": cban, "grads": grads}, {x: xv})
    for k, v in sorted(out.items()):
        RESULTS[k] = v
    RESULTS["moments"] = sess.run([c, m_ss, v_ss, mean, var, c2, mean2, var2])
    RESULTS["sorts"] = sess.run([srt, srt_d, srt0, args, args_d])
    RESULTS["dnn"] = sess.run(dnn)
    RESULTS["bg"] = sess.run(bg)
try:
    tf.sort(vals, direction="UP")
except ValueError as e:
    RESULTS["bad_direction"] = type(e).__name__
