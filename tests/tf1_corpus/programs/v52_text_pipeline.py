# NMT-tutorial-style input pipeline: TextLineDataset, string_split, vocabulary table lookup
# inside map, sos/eos tokens with tf.concat, truncation, zip of source and target,
# filter of empty lines, padded_batch with tensor padding values, initializable iterator.
import os
import shutil
import tempfile

import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

workdir = tempfile.mkdtemp()
src_file = os.path.join(workdir, "train.src")
tgt_file = os.path.join(workdir, "train.tgt")
vocab_file = os.path.join(workdir, "vocab.txt")
with open(src_file, "w") as f:
    f.write("the cat sat\na dog\n\nthe dog sat on a mat today\ncat\n")
with open(tgt_file, "w") as f:
    f.write("le chat\nun chien\nrien\nle chien\nchat\n")
with open(vocab_file, "w") as f:
    f.write("<unk>\n<s>\n</s>\nthe\ncat\nsat\na\ndog\nle\nchat\nun\nchien\n")

vocab_table = tf.lookup.StaticHashTable(
    tf.lookup.TextFileInitializer(vocab_file, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                                  tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), default_value=0)
sos_id = tf.cast(vocab_table.lookup(tf.constant("<s>")), tf.int32)
eos_id = tf.cast(vocab_table.lookup(tf.constant("</s>")), tf.int32)
src_max_len = 4

src_dataset = tf.data.TextLineDataset(src_file)
tgt_dataset = tf.data.TextLineDataset(tgt_file)
dataset = tf.data.Dataset.zip((src_dataset, tgt_dataset))
dataset = dataset.map(lambda src, tgt: (tf.string_split([src]).values, tf.string_split([tgt]).values))
dataset = dataset.filter(lambda src, tgt: tf.logical_and(tf.size(src) > 0, tf.size(tgt) > 0))
dataset = dataset.map(lambda src, tgt: (src[:src_max_len], tgt))
dataset = dataset.map(lambda src, tgt: (tf.cast(vocab_table.lookup(src), tf.int32),
                                        tf.cast(vocab_table.lookup(tgt), tf.int32)),
                      num_parallel_calls=2)
dataset = dataset.map(lambda src, tgt: (src, tf.concat(([1], tgt), 0), tf.concat((tgt, [2]), 0)))
dataset = dataset.map(lambda src, tgt_in, tgt_out: (src, tgt_in, tgt_out, tf.size(src), tf.size(tgt_in)))
RESULTS["mapped_shapes"] = [s.as_list() for s in dataset.output_shapes]
RESULTS["mapped_types"] = [t.name for t in dataset.output_types]

batched = dataset.padded_batch(
    2, padded_shapes=(tf.TensorShape([None]), tf.TensorShape([None]), tf.TensorShape([None]),
                      tf.TensorShape([]), tf.TensorShape([])),
    padding_values=(eos_id, eos_id, eos_id, 0, 0))
RESULTS["batched_shapes"] = [s.as_list() for s in batched.output_shapes]
iterator = batched.make_initializable_iterator()
src_ids, tgt_input_ids, tgt_output_ids, src_len, tgt_len = iterator.get_next()
words = tf.data.make_one_shot_iterator(src_dataset.map(lambda line: tf.string_split([line]).values)).get_next()

with tf.Session() as sess:
    sess.run(tf.tables_initializer())
    RESULTS["sos_eos"] = sess.run([sos_id, eos_id])
    RESULTS["first_words"] = sess.run(words)
    for epoch in range(2):
        sess.run(iterator.initializer)
        batches = []
        while True:
            try:
                batches.append(sess.run([src_ids, tgt_input_ids, tgt_output_ids, src_len, tgt_len]))
            except tf.errors.OutOfRangeError:
                break
        RESULTS[f"epoch{epoch}"] = batches
shutil.rmtree(workdir, ignore_errors=True)
