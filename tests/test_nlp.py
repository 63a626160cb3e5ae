"""RNN/NLP tutorial gaps (values are checked against TF in the corpus, v54_*)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf


def test_sequence_mask_maxlen_from_a_fed_shape() -> None:
    lengths = tf.placeholder(tf.int32, [None])
    targets = tf.placeholder(tf.int32, [None, None])
    mask = tf.sequence_mask(lengths, tf.shape(targets)[1], dtype=tf.float32)
    assert mask.shape.as_list() == [None, None]
    with tf.Session() as sess:
        got = sess.run(mask, {lengths: [1, 3], targets: np.zeros([2, 4], np.int32)})
    np.testing.assert_array_equal(got, [[1, 0, 0, 0], [1, 1, 1, 0]])
    assert got.dtype == np.float32


def test_sequence_mask_maxlen_from_fed_data_is_refused() -> None:
    lengths = tf.placeholder(tf.int32, [None])
    with pytest.raises(ValueError, match="sequence_mask: argument 'maxlen'"):
        tf.sequence_mask(lengths, tf.reduce_max(lengths))


def test_global_step_is_named_by_the_variable_scope() -> None:
    with tf.variable_scope("Model"):
        step = tf.train.get_or_create_global_step()
    assert step.name == "Model/global_step:0"
    assert tf.train.get_global_step() is step
    with tf.variable_scope("Model", reuse=True):
        assert tf.get_variable("global_step", dtype=tf.int64) is step
    assert step.dtype == tf.int64 and not step.trainable


def test_partitioned_variable_parts_and_errors() -> None:
    with tf.variable_scope("s", partitioner=tf.fixed_size_partitioner(3)):
        pv = tf.get_variable("w", [7, 2], initializer=tf.constant_initializer(1.0))
    assert isinstance(pv, tf.PartitionedVariable)
    assert [(v.name, v.shape.as_list()) for v in pv] == [
        ("s/w/part_0:0", [3, 2]), ("s/w/part_1:0", [2, 2]), ("s/w/part_2:0", [2, 2])]
    with pytest.raises(ValueError, match="Partitioned variable with name s/w already exists"):
        with tf.variable_scope("s", partitioner=tf.fixed_size_partitioner(3)):
            tf.get_variable("w", [7, 2])
    with pytest.raises(ValueError, match="a partitioned version of the variable was found: s/w"):
        with tf.variable_scope("s", reuse=True):
            tf.get_variable("w", [7, 2])
    with pytest.raises(ValueError, match="must be fully defined"):
        tf.get_variable("u", [None, 2], partitioner=tf.fixed_size_partitioner(2))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(pv.assign(np.arange(14, dtype=np.float32).reshape(7, 2)))
        np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(pv)), np.arange(14).reshape(7, 2))
        np.testing.assert_array_equal(sess.run(list(pv)[1]), [[6, 7], [8, 9]])


def test_partitioned_glorot_scales_by_the_whole_shape() -> None:
    init = tf.glorot_uniform_initializer(seed=1)
    pv = tf.get_variable("g", [200, 2], initializer=init, partitioner=tf.fixed_size_partitioner(2))
    limit = np.sqrt(6.0 / (200 + 2))  # a part alone would give sqrt(6 / (100 + 2))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(tf.convert_to_tensor(pv))
    assert np.abs(value).max() <= limit and np.abs(value).max() > 0.5 * limit


def test_embedding_lookup_shards_must_fit_the_strategy() -> None:
    shards = [tf.zeros([1, 2]), tf.zeros([3, 2])]
    with pytest.raises(ValueError, match="do not match partition_strategy 'mod'"):
        tf.nn.embedding_lookup(shards, [0, 1])
    with pytest.raises(ValueError, match="Unrecognized partition strategy"):
        tf.nn.embedding_lookup([tf.zeros([2, 2]), tf.zeros([2, 2])], [0], partition_strategy="range")


def test_fixed_unigram_candidate_sampler_draws_by_counts() -> None:
    labels = tf.constant([[1], [2]], tf.int64)
    out = tf.nn.fixed_unigram_candidate_sampler(labels, 1, 4, False, 5, unigrams=[0, 1, 0, 3], num_reserved_ids=1,
                                                seed=3)
    with tf.Session() as sess:
        sampled, true_exp, sampled_exp = sess.run(out)
    assert sampled.dtype == np.int64 and set(sampled.tolist()) <= {2, 4}
    np.testing.assert_allclose(true_exp, [[0.0], [1.0]])
    np.testing.assert_allclose(sampled_exp, np.where(sampled == 2, 1.0, 3.0))
    with pytest.raises(ValueError, match="range_max"):
        tf.nn.fixed_unigram_candidate_sampler(labels, 1, 2, False, 9, unigrams=[1, 2])


def test_gradient_through_stop_gradient_only_is_none() -> None:
    labels = tf.Variable([[0.2, 0.8]])
    logits = tf.constant([[1.0, 2.0]])
    v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    assert tf.gradients(v1, labels) == [None]
    assert tf.gradients(v2, labels)[0] is not None
    assert tf.gradients(tf.stop_gradient(labels) * 2.0, labels) == [None]


def test_random_categorical_dtype() -> None:
    draws = tf.random.categorical(tf.zeros([2, 3]), 4, dtype=tf.int32, seed=1)
    assert draws.dtype == tf.int32 and draws.shape.as_list() == [2, 4]
    assert tf.random.categorical(tf.zeros([1, 3]), 1).dtype == tf.int64


def test_variational_dropout_mask_is_shared_over_time_and_batch() -> None:
    x = tf.ones([4, 6, 3])
    cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(8), input_keep_prob=0.5, output_keep_prob=0.5,
                                         variational_recurrent=True, input_size=3, dtype=tf.float32, seed=5)
    out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        o = sess.run(out)
    dropped = o == 0
    assert dropped.any() and not dropped.all()
    assert np.all(dropped == dropped[:1, :1, :])


def test_cell_built_directly_names_variables_in_its_scope() -> None:
    with tf.variable_scope("scan"):
        cell = tf.nn.rnn_cell.BasicRNNCell(3)
        cell.build(tf.TensorShape([None, 2]))
        out, _ = cell(tf.zeros([1, 2]), tf.zeros([1, 3]))
    assert [v.name for v in tf.global_variables()] == ["scan/basic_rnn_cell/kernel:0", "scan/basic_rnn_cell/bias:0"]
    assert out.shape.as_list() == [1, 3]


def test_cast_of_a_sparse_tensor_casts_its_values() -> None:
    sp = tf.SparseTensor(indices=[[0, 1], [1, 0]], values=tf.constant([3, 4], tf.int64), dense_shape=[2, 2])
    cast = tf.cast(sp, tf.int32)
    assert isinstance(cast, tf.SparseTensor) and cast.values.dtype == tf.int32
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.sparse.to_dense(cast)), [[0, 3], [4, 0]])


def test_dynamic_rnn_rank_error_comes_before_the_cell_builds() -> None:
    with pytest.raises(ValueError, match=r"Shape \(2, 2\) must have rank at least 3"):
        tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), tf.zeros([2, 2]), dtype=tf.float32)
    assert tf.global_variables() == []
