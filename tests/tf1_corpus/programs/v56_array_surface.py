import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.constant([[1, 2], [3, 4]])
fed = tf.placeholder(tf.float32, [None, 3], name="fed")
idx = tf.placeholder(tf.int32, [], name="idx")
outs = {
    "repeat_axis0": tf.repeat(x, [1, 2], axis=0), "repeat_flat": tf.repeat(x, 2),
    "repeat_axis1": tf.repeat(x, 3, axis=1), "repeat_neg": tf.repeat(x, [2, 0], axis=-1),
    "histo_bins": tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5),
    "histo_bins2d": tf.histogram_fixed_width_bins(tf.constant([[0.1, 0.9], [0.5, 0.45]]), [0.0, 1.0], nbins=4,
                                                  dtype=tf.int64),
    "parallel_stack": tf.parallel_stack([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]),
    "bcast_dyn": tf.broadcast_dynamic_shape(tf.constant([2, 1, 3]), tf.constant([4, 1])),
    "bcast_dyn_fed": tf.broadcast_dynamic_shape(tf.shape(fed), tf.constant([1, 1, 3])),
    "ensure": tf.ensure_shape(fed, [2, 3]) * 2.0,
    "switch": tf.switch_case(idx, [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)]),
    "switch_default": tf.switch_case(idx, {0: lambda: tf.constant(1.0), 1: lambda: tf.constant(2.0)},
                                     default=lambda: tf.constant(-1.0)),
}
s0, s1 = tf.shape_n([tf.cast(x, tf.float32), fed])
outs["shape_n0"], outs["shape_n1"] = s0, s1
outs["shape_n64"] = tf.shape_n([x], out_type=tf.int64)[0]
feed = {fed: np.arange(6, dtype=np.float32).reshape(2, 3), idx: 1}
with tf.Session() as sess:
    vals = sess.run(outs, feed)
    for k, v in vals.items():
        RESULTS[k] = v
        RESULTS[k + "/dtype"] = outs[k].dtype.name
    for k in ["repeat_flat", "repeat_axis1", "histo_bins", "histo_bins2d", "parallel_stack", "bcast_dyn", "ensure",
              "shape_n0", "shape_n1", "switch"]:
        RESULTS[k + "/shape"] = outs[k].shape.as_list()
    for k in ["histo_bins", "parallel_stack", "bcast_dyn", "shape_n0", "shape_n1", "switch", "switch_default"]:
        RESULTS[k + "/name"] = outs[k].name
    RESULTS["switch_out_of_range"] = sess.run([outs["switch"], outs["switch_default"]], {idx: 7, fed: feed[fed]})
    RESULTS["switch_negative"] = sess.run([outs["switch"], outs["switch_default"]], {idx: -1, fed: feed[fed]})
    try:
        sess.run(outs["ensure"], {fed: np.zeros([3, 3], np.float32), idx: 0})
        RESULTS["ensure_run_error"] = "no error"
    except tf.errors.OpError as e:
        RESULTS["ensure_run_error"] = type(e).__name__
RESULTS["static_bcast"] = tf.broadcast_static_shape(tf.TensorShape([None, 1, 3]), tf.TensorShape([4, 1])).as_list()
RESULTS["static_bcast2"] = tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([3])).as_list()
for name, fn in [("static_bcast_bad", lambda: tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))),
                 ("ensure_bad", lambda: tf.ensure_shape(fed, [2, 4])),
                 ("shape_n_mixed", lambda: tf.shape_n([x, fed])),
                 ("switch_empty", lambda: tf.switch_case(idx, []))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
