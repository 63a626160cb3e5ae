"""tf.data pieces of input-pipeline tutorials: Options, cardinality, get_single_element, reduce,
make_csv_dataset and TFRecordWriter."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

tmp = tempfile.mkdtemp()
csv_path = os.path.join(tmp, "train.csv")
with open(csv_path, "w") as f:
    f.write("sepal,petal,name,label\n")
    for i in range(7):
        f.write(f"{i * 0.5},{i + 1},n{i},{i % 3}\n")

options = tf.data.Options()
options.experimental_deterministic = True
ds = tf.data.Dataset.range(10).map(lambda x: x * 2).with_options(options)
card = tf.data.experimental.cardinality(ds)
card_filtered = tf.data.experimental.cardinality(ds.filter(lambda x: x > 3))
card_repeat = tf.data.experimental.cardinality(ds.repeat())
card_batched = tf.data.experimental.cardinality(ds.batch(3))
card_dropped = tf.data.experimental.cardinality(ds.batch(3, drop_remainder=True))
single = tf.data.experimental.get_single_element(tf.data.Dataset.from_tensor_slices([[1, 2, 3]]))
total = tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)
RESULTS["cardinality_dtype"] = card.dtype.name
RESULTS["infinite"] = int(tf.data.experimental.INFINITE_CARDINALITY)
RESULTS["unknown"] = int(tf.data.experimental.UNKNOWN_CARDINALITY)
RESULTS["options_deterministic"] = ds.options().experimental_deterministic
z = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(3)))
pairs = z.reduce(np.int64(0), lambda s, x: s + x[0] * x[1])
empty = tf.data.Dataset.range(0).reduce(np.int64(7), lambda s, x: s + x)
two = tf.data.Dataset.range(4).reduce((np.int64(0), np.float32(1)), lambda s, x: (s[0] + x, s[1] * 2.0))
scanned = tf.data.make_one_shot_iterator(z.scan(np.int64(0), lambda s, x: (s + x[0], s * 2))).get_next()
n = tf.placeholder(tf.int64, [])
fed = tf.data.experimental.cardinality(tf.data.Dataset.range(n).batch(4).repeat(2).skip(1))
counts = {
    "range": tf.data.Dataset.range(10),
    "map": tf.data.Dataset.range(10).map(lambda x: x * 2),
    "slices_batch": tf.data.Dataset.from_tensor_slices(np.arange(10)).batch(3),
    "take": tf.data.Dataset.range(10).take(4),
    "skip": tf.data.Dataset.range(10).skip(4),
    "repeat3": tf.data.Dataset.range(10).repeat(3),
    "shuffle": tf.data.Dataset.range(10).shuffle(5),
    "zip": tf.data.Dataset.zip((tf.data.Dataset.range(10), tf.data.Dataset.range(4))),
    "concat": tf.data.Dataset.range(10).concatenate(tf.data.Dataset.range(4)),
    "gen": tf.data.Dataset.from_generator(lambda: iter([1]), tf.int64),
    "repeat_inf_take": tf.data.Dataset.range(10).repeat().take(5),
    "repeat_inf_skip": tf.data.Dataset.range(10).repeat().skip(5),
    "padded": tf.data.Dataset.range(10).padded_batch(4, padded_shapes=[]),
    "window": tf.data.Dataset.range(10).window(3),
    "window_drop": tf.data.Dataset.range(10).window(3, shift=2, drop_remainder=True),
    "enumerate": tf.data.Dataset.range(10).enumerate(),
    "tensors": tf.data.Dataset.from_tensors([1, 2]),
    "shard": tf.data.Dataset.range(10).shard(3, 1),
    "range_step": tf.data.Dataset.range(2, 11, 3),
    "empty_repeat": tf.data.Dataset.range(0).repeat(),
    "cache_prefetch": tf.data.Dataset.range(5).cache().prefetch(1),
}
counts = {k: tf.data.experimental.cardinality(d) for k, d in counts.items()}

csv_ds = tf.data.experimental.make_csv_dataset(csv_path, batch_size=3, label_name="label", num_epochs=1,
                                              shuffle=False)
csv_next = tf.data.make_one_shot_iterator(csv_ds).get_next()
csv_sel = tf.data.experimental.make_csv_dataset(csv_path, batch_size=4, select_columns=["petal", "label"],
                                               column_defaults=[tf.float32, tf.int32], num_epochs=1,
                                               shuffle=False)
sel_next = tf.data.make_one_shot_iterator(csv_sel).get_next()
csv_shuf = tf.data.experimental.make_csv_dataset(csv_path, batch_size=2, label_name="label", shuffle=True,
                                                shuffle_seed=3, num_epochs=None)
shuf_next = tf.data.make_one_shot_iterator(csv_shuf).get_next()
RESULTS["shuf_shapes"] = {k: v.shape.as_list() for k, v in shuf_next[0].items()}

rec_path = os.path.join(tmp, "data.tfrecord")
writer = tf.data.experimental.TFRecordWriter(rec_path)
write_op = writer.write(tf.data.Dataset.from_tensor_slices([b"alpha", b"beta", b"gamma"]))
read_next = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset(rec_path).batch(3)).get_next()

with tf.Session() as sess:
    for key, t in [("card", card), ("card_filtered", card_filtered), ("card_repeat", card_repeat),
                   ("card_batched", card_batched), ("card_dropped", card_dropped), ("single", single),
                   ("reduce_total", total), ("reduce_pairs", pairs), ("reduce_empty", empty), ("reduce_two", two),
                   ("counts", counts)]:
        RESULTS[key] = sess.run(t)
    batches = []
    while True:
        try:
            batches.append(sess.run(csv_next))
        except tf.errors.OutOfRangeError:
            break
    RESULTS["scanned"] = [sess.run(scanned) for _ in range(3)]
    RESULTS["fed_cardinality"] = [sess.run(fed, {n: 10}), sess.run(fed, {n: 0})]
    RESULTS["csv_batches"] = [(dict(features), label) for features, label in batches]
    RESULTS["csv_keys"] = sorted(csv_next[0].keys())
    RESULTS["csv_dtypes"] = {k: v.dtype.name for k, v in csv_next[0].items()}
    RESULTS["csv_label_dtype"] = csv_next[1].dtype.name
    RESULTS["csv_shapes"] = {k: v.shape.as_list() for k, v in csv_next[0].items()}
    RESULTS["sel"] = sess.run(sel_next)
    RESULTS["shuffled"] = [sess.run(shuf_next) for _ in range(5)]
    RESULTS["sel_dtypes"] = {k: v.dtype.name for k, v in sel_next.items()}
    sess.run(write_op)
    RESULTS["records"] = sess.run(read_next)
