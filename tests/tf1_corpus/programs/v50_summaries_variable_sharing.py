# Summaries of images/text/histograms read back, CS20SI variable sharing, logistic regression on tf.data.
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
logdir = tempfile.mkdtemp()
rng = np.random.RandomState(8)
Xd = rng.rand(20, 4).astype(np.float32)
Yd = (Xd.sum(1) > 2).astype(np.int64)


def two_hidden_layers(x):
    assert x.shape.as_list() == [None, 4]
    h1 = fully_connected(x, 5, "h1")
    h2 = fully_connected(h1, 2, "h2")
    return h2


def fully_connected(x, output_dim, scope):
    with tf.variable_scope(scope, reuse=tf.AUTO_REUSE):
        w = tf.get_variable("weights", [x.shape[1], output_dim], initializer=tf.constant_initializer(0.1))
        b = tf.get_variable("biases", [output_dim], initializer=tf.constant_initializer(0.0))
        return tf.matmul(x, w) + b


Xp = tf.placeholder(tf.float32, [None, 4])
Yp = tf.placeholder(tf.int64, [None])
dataset = tf.data.Dataset.from_tensor_slices((Xp, Yp)).batch(5)
iterator = dataset.make_initializable_iterator()
img, label = iterator.get_next()
with tf.variable_scope("two_layers") as scope:
    logits1 = two_hidden_layers(img)
    scope.reuse_variables()
    logits2 = two_hidden_layers(Xp)
entropy = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=label, logits=logits1, name="entropy")
loss = tf.reduce_mean(entropy, name="loss")
opt = tf.train.AdagradOptimizer(0.5).minimize(loss)
preds = tf.nn.softmax(logits2)
correct = tf.equal(tf.argmax(preds, 1), Yp)
accuracy = tf.reduce_sum(tf.cast(correct, tf.float32))

with tf.name_scope("summaries"):
    tf.summary.scalar("accuracy", accuracy)
    tf.summary.histogram("histogram_logits", logits2)
    tf.summary.image("input", tf.reshape(Xp[:2], [2, 2, 2, 1]), max_outputs=2)
    tf.summary.text("note", tf.constant("logistic regression"))
summary_op = tf.summary.merge_all()

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(logdir, sess.graph)
    epoch_batches = []
    for epoch in range(2):
        sess.run(iterator.initializer, feed_dict={Xp: Xd, Yp: Yd})
        n = 0
        try:
            while True:
                sess.run([opt, loss])
                n += 1
        except tf.errors.OutOfRangeError:
            pass
        epoch_batches.append(n)
        summ = sess.run(summary_op, {Xp: Xd, Yp: Yd})
        writer.add_summary(summ, global_step=epoch)
    writer.close()
    RESULTS["batches"] = epoch_batches
    RESULTS["acc"] = sess.run(accuracy, {Xp: Xd, Yp: Yd})
    RESULTS["summary_type"] = type(summ).__name__
RESULTS["vars"] = [v.name for v in tf.global_variables() if "Adagrad" not in v.name]
RESULTS["n_vars"] = len(tf.global_variables())
RESULTS["summary_names"] = sorted(t.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES))

tags = []
for f in sorted(os.listdir(logdir)):
    for e in tf.train.summary_iterator(os.path.join(logdir, f)):
        if e.HasField("summary"):
            for v in e.summary.value:
                kind = v.WhichOneof("value")
                row = [e.step, v.tag, kind, v.metadata.plugin_data.plugin_name]
                if kind == "image":
                    row += [v.image.height, v.image.width, v.image.colorspace]
                if kind == "tensor":
                    row += [v.tensor.string_val[0]]
                if kind == "histo":
                    row += [v.histo.num]
                tags.append(row)
        elif e.HasField("graph_def"):
            tags.append("graph")
        elif e.HasField("file_version"):
            tags.append(e.file_version)
RESULTS["events"] = tags
