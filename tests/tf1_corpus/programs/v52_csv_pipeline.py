# CSV input pipeline (the "Datasets for Estimators"/iris tutorial): TextLineDataset with a
# header skipped, decode_csv, dict features, label popped, CsvDataset, and a softmax
# classifier trained from the iterator.
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

CSV_COLUMN_NAMES = ["SepalLength", "SepalWidth", "PetalLength", "PetalWidth", "Species"]
rows = [
    "SepalLength,SepalWidth,PetalLength,PetalWidth,Species",
    "6.4,2.8,5.6,2.2,2", "5.0,2.3,3.3,1.0,1", "4.9,2.5,4.5,1.7,2", "4.9,3.1,1.5,0.1,0",
    "5.7,3.8,1.7,0.3,0", "4.4,3.2,1.3,0.2,0", "5.4,3.4,1.5,0.4,0", "6.9,3.1,5.1,2.3,2",
    "6.7,3.1,4.4,1.4,1", "5.1,3.7,1.5,0.4,0",
]
workdir = tempfile.mkdtemp()
path = os.path.join(workdir, "iris_training.csv")
with open(path, "w") as f:
    f.write("\n".join(rows) + "\n")

CSV_TYPES = [[0.0], [0.0], [0.0], [0.0], [0]]


def _parse_line(line):
    fields = tf.decode_csv(line, record_defaults=CSV_TYPES)
    features = dict(zip(CSV_COLUMN_NAMES, fields))
    label = features.pop("Species")
    return features, label


dataset = tf.data.TextLineDataset(path).skip(1).map(_parse_line)
RESULTS["feature_types"] = {k: v.name for k, v in dataset.output_types[0].items()}
RESULTS["label_shape"] = dataset.output_shapes[1].as_list()
batched = dataset.batch(4)
features, labels = tf.data.make_one_shot_iterator(batched.repeat(3)).get_next()
x = tf.stack([features[k] for k in CSV_COLUMN_NAMES[:4]], axis=1)
RESULTS["x_shape"] = x.shape.as_list()
w = tf.Variable(np.full((4, 3), 0.05, np.float32))
b = tf.Variable(np.zeros(3, np.float32))
logits = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

csv_ds = tf.data.experimental.CsvDataset(path, [tf.float32, tf.constant([0.0]), [0.0], [0.0], [0]], header=True,
                                         select_cols=None)
csv_next = tf.data.make_one_shot_iterator(csv_ds.batch(5)).get_next()
RESULTS["csv_types"] = [t.name for t in csv_ds.output_types]
RESULTS["csv_shapes"] = [s.as_list() for s in csv_ds.output_shapes]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = []
    try:
        while True:
            losses.append(sess.run([train, loss])[1])
    except tf.errors.OutOfRangeError:
        pass
    RESULTS["losses"] = losses
    RESULTS["w"] = sess.run(w)
    RESULTS["csv_first"] = sess.run(csv_next)
    RESULTS["csv_second"] = sess.run(csv_next)
shutil.rmtree(workdir, ignore_errors=True)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
