"""tf.train.warm_start from a checkpoint: a regex of trainable variables, a list of names, renames
(var_name_to_prev_var_name), and an embedding remapped to a new vocabulary with tf.train.VocabInfo
(rows of words not in the old vocabulary and OOV rows from the backup initializer)."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
work = tempfile.mkdtemp()
old_vocab = os.path.join(work, "old_vocab.txt")
new_vocab = os.path.join(work, "new_vocab.txt")
with open(old_vocab, "w") as f:
    f.write("apple\nbanana\ncherry\ndate\n")
with open(new_vocab, "w") as f:
    f.write("cherry\nfig\napple\ndate\ngrape\n")

with tf.Graph().as_default():
    emb = tf.get_variable("emb", initializer=np.arange(12, dtype=np.float32).reshape(4, 3))
    out_w = tf.get_variable("out/w", initializer=np.arange(8, dtype=np.float32).reshape(2, 4) / 10)
    dense_w = tf.get_variable("dense/kernel", initializer=np.full([3, 2], 7.0, np.float32))
    dense_b = tf.get_variable("dense/bias", initializer=np.array([1.0, -1.0], np.float32))
    step = tf.get_variable("step", initializer=np.int64(42), trainable=False)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ckpt = tf.train.Saver().save(sess, os.path.join(work, "model.ckpt"))


def fresh():
    emb = tf.get_variable("emb", [6, 3], initializer=tf.constant_initializer(-1.0))
    out_w = tf.get_variable("out/w", [2, 5], initializer=tf.constant_initializer(-2.0))
    kernel = tf.get_variable("new_dense/kernel", [3, 2], initializer=tf.zeros_initializer())
    bias = tf.get_variable("dense/bias", [2], initializer=tf.zeros_initializer())
    step = tf.get_variable("step", [], tf.int64, initializer=tf.zeros_initializer(), trainable=False)
    return [emb, out_w, kernel, bias, step]


def run(name, **kwargs):
    with tf.Graph().as_default():
        vs = fresh()
        try:
            tf.train.warm_start(ckpt, **kwargs)
        except Exception as e:  # noqa: BLE001
            RESULTS[name] = type(e).__name__
            return
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            RESULTS[name] = sess.run(vs)


emb_vocab = tf.train.VocabInfo(new_vocab, 5, 1, old_vocab, backup_initializer=tf.ones_initializer())
out_vocab = tf.train.VocabInfo(new_vocab, 4, 1, old_vocab, old_vocab_size=3, axis=1)
RESULTS["vocab_info"] = list(emb_vocab[1:3]) + [out_vocab.old_vocab_size, out_vocab.axis]
run("bias_only", vars_to_warm_start="dense/b")
run("renamed", vars_to_warm_start=["new_dense/kernel", "dense/bias", "step"],
    var_name_to_prev_var_name={"new_dense/kernel": "dense/kernel"})
run("vocab", vars_to_warm_start=None, var_name_to_vocab_info={"emb": emb_vocab, "out/w": out_vocab})
run("vocab_and_regex", vars_to_warm_start="emb|dense/bias", var_name_to_vocab_info={"emb": emb_vocab})
run("misspelled_rename", vars_to_warm_start="dense", var_name_to_prev_var_name={"dense/biass": "x"})
run("bad_type", vars_to_warm_start=3)
run("missing_in_ckpt", vars_to_warm_start=".*")
try:
    tf.train.VocabInfo(new_vocab, 5, 1, old_vocab, axis=2)
    RESULTS["bad_axis"] = "no error"
except Exception as e:  # noqa: BLE001
    RESULTS["bad_axis"] = type(e).__name__
