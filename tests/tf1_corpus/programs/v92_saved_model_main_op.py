"""tf.saved_model.main_op.main_op() / main_op_with_restore as a SavedModel's main op: variables and local
variables initialized on load (after the restore: the saved values are overwritten, as TF)."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
export_dir = os.path.join(tempfile.mkdtemp(), "model")
with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]], name="w")
    count = tf.Variable(5, name="count", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    y = tf.add(tf.matmul(x, w), tf.cast(count, tf.float32), name="y")
    op = tf.saved_model.main_op.main_op()
    RESULTS["main_op"] = [op.type, sorted(i.type for i in op.control_inputs)]
    with tf.Session() as sess:
        sess.run(op)
        sess.run(w.assign([[10.0], [20.0]]))
        RESULTS["after_main_op"] = sess.run(y, {x: [[1.0, 1.0]]})
        builder = tf.saved_model.builder.SavedModelBuilder(export_dir)
        builder.add_meta_graph_and_variables(sess, [tf.saved_model.tag_constants.SERVING],
                                             main_op=tf.saved_model.main_op.main_op())
        builder.save()
    restore = tf.no_op(name="my_restore")
    with_restore = tf.saved_model.main_op_with_restore(restore)
    RESULTS["with_restore"] = [with_restore.type, [i.name for i in with_restore.control_inputs][-1:]]
    try:
        tf.saved_model.main_op.main_op_with_restore("my_restore")
        RESULTS["with_restore_name"] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS["with_restore_name"] = type(e).__name__

with tf.Graph().as_default():
    with tf.Session() as sess:
        tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
        RESULTS["loaded"] = sess.run("y:0", {"x:0": np.array([[1.0, 2.0]], np.float32)})
