# TFRecord input pipeline as in the TF1 models/ tutorials: write sharded TFRecord files of
# tf.train.Example, list_files + parallel_interleave / interleave of TFRecordDataset,
# parse_single_example in map (num_parallel_calls=AUTOTUNE), batch + prefetch.
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

workdir = tempfile.mkdtemp()
paths = []
for shard in range(3):
    path = os.path.join(workdir, "train-%05d-of-00003.tfrecord" % shard)
    with tf.python_io.TFRecordWriter(path) as writer:
        for i in range(4):
            value = shard * 10 + i
            example = tf.train.Example(features=tf.train.Features(feature={
                "image": tf.train.Feature(float_list=tf.train.FloatList(value=[value * 0.5, value * 0.25])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[value % 3])),
                "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[("item%d" % value).encode()])),
            }))
            writer.write(example.SerializeToString())
    paths.append(path)

feature_spec = {
    "image": tf.FixedLenFeature([2], tf.float32),
    "label": tf.FixedLenFeature([], tf.int64),
    "name": tf.FixedLenFeature([], tf.string, default_value=""),
}


def parse(record):
    parsed = tf.parse_single_example(record, feature_spec)
    return parsed["image"] * 2.0, tf.cast(parsed["label"], tf.int32), parsed["name"]


files = tf.data.Dataset.list_files(os.path.join(workdir, "train-*.tfrecord"), shuffle=False)
ds = files.apply(tf.data.experimental.parallel_interleave(tf.data.TFRecordDataset, cycle_length=2, sloppy=False))
ds = ds.map(parse, num_parallel_calls=tf.data.experimental.AUTOTUNE).batch(5).prefetch(1)
RESULTS["shapes"] = [s.as_list() for s in ds.output_shapes]
RESULTS["types"] = [t.name for t in ds.output_types]
images, labels, names = tf.data.make_one_shot_iterator(ds).get_next()

blocks = tf.data.Dataset.from_tensor_slices(paths).interleave(
    lambda f: tf.data.TFRecordDataset(f).map(parse), cycle_length=3, block_length=2)
block_names = tf.data.make_one_shot_iterator(blocks.map(lambda i, l, n: n)).get_next()

w = tf.Variable([[0.1, -0.1, 0.0], [0.0, 0.2, -0.2]])
logits = tf.matmul(images, w)
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
train = tf.train.AdamOptimizer(0.05).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    batches = []
    try:
        while True:
            _, l, n = sess.run([train, loss, names])
            batches.append((l, list(n)))
    except tf.errors.OutOfRangeError:
        pass
    RESULTS["batches"] = batches
    order = []
    try:
        while True:
            order.append(sess.run(block_names))
    except tf.errors.OutOfRangeError:
        pass
    RESULTS["block_order"] = order
shutil.rmtree(workdir, ignore_errors=True)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
