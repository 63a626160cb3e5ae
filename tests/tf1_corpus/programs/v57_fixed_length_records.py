"""CIFAR-10 style input pipeline: binary files of fixed-length records (label byte + image
bytes) read with tf.data.FixedLengthRecordDataset and decoded with decode_raw."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

data_dir = tempfile.mkdtemp()
label_bytes, height, width, depth = 1, 2, 2, 3
record_bytes = label_bytes + height * width * depth
rng = np.random.RandomState(0)
paths = []
for i in range(2):
    records = rng.randint(0, 256, size=(3, record_bytes)).astype(np.uint8)
    path = os.path.join(data_dir, f"data_batch_{i}.bin")
    with open(path, "wb") as f:
        f.write(b"HDR" + records.tobytes() + b"FT")  # header, records, footer
    paths.append(path)


def parse(value):
    raw = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(raw, [0], [label_bytes]), tf.int32)
    image = tf.reshape(tf.strided_slice(raw, [label_bytes], [record_bytes]), [depth, height, width])
    image = tf.cast(tf.transpose(image, [1, 2, 0]), tf.float32) / 255.0
    return image, tf.reshape(label, [])


dataset = tf.data.FixedLengthRecordDataset(paths, record_bytes, header_bytes=3, footer_bytes=2)
dataset = dataset.map(parse).batch(4)
images, labels = dataset.make_one_shot_iterator().get_next()

plain = tf.data.FixedLengthRecordDataset(paths[0], 4)
plain_next = plain.make_one_shot_iterator().get_next()

with tf.Session() as sess:
    batches = []
    while True:
        try:
            batches.append(sess.run([images, labels]))
        except tf.errors.OutOfRangeError:
            break
    RESULTS["images"] = [b[0] for b in batches]
    RESULTS["labels"] = [b[1] for b in batches]
    first = [sess.run(plain_next) for _ in range(3)]
    RESULTS["plain"] = first
    partial = tf.data.FixedLengthRecordDataset(paths[0], 7).make_one_shot_iterator().get_next()
    try:
        sess.run(partial)
    except tf.errors.InvalidArgumentError as e:
        RESULTS["partial"] = "is not an exact multiple of the record length (7 bytes)" in e.message

RESULTS["static"] = [images.shape.as_list(), labels.shape.as_list(), plain_next.dtype.name,
                     str(dataset.output_types), plain.output_shapes.as_list()]
