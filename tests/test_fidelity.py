"""Fidelity of the core to TF1: static shapes, names, dtypes and errors (checked against TF 2.21)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors


def shape(t: tf.Tensor) -> list[int | None] | None:
    return t.shape.as_list() if t.shape.ndims is not None else None


# -- slices of unknown dimensions ------------------------------------------------------------


def test_slice_of_an_unknown_dimension_is_unknown() -> None:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None])
        seq = tf.placeholder(tf.float32, [None, 5, 4])
        i = tf.placeholder(tf.int32, [])
        assert shape(x[0:1]) == [None, None]  # TF: even a 1-long range of an unknown dim
        assert shape(seq[0:1]) == [None, 5, 4]
        assert shape(seq[:, 1:3]) == [None, 2, 4]
        assert shape(seq[:, -1:-6:-2]) == [None, 3, 4]
        assert shape(seq[tf.newaxis, ..., tf.newaxis]) == [1, None, 5, 4, 1]
        assert shape(seq[:, i]) == [None, 4]
        assert shape(seq[:, i:i + 2]) == [None, None, 4]  # a tensor bound: unknown
        assert shape(seq[::i]) is None  # a tensor step: unknown rank
        assert shape(tf.placeholder(tf.float32)[0:1]) is None


def test_slice_errors_are_tfs() -> None:
    with tf.Graph().as_default():
        seq = tf.placeholder(tf.float32, [None, 5, 4])
        with pytest.raises(ValueError, match="Index out of range using input dim 3"):
            seq[0, 1, 2, 3]
        with pytest.raises(ValueError, match="Multiple ellipses"):
            seq[..., 0, ...]
        with pytest.raises(TypeError, match="int32/int64"):
            seq[tf.constant(1.0)]


# -- summaries ---------------------------------------------------------------------------------


def test_summary_tensors_are_string_scalars_fetched_as_summary_bytes(sess: tf.Session) -> None:
    x = tf.placeholder(tf.float32, [None])
    s = tf.summary.scalar("mean", tf.reduce_mean(x))
    h = tf.summary.histogram("x", x)
    i = tf.summary.image("img", tf.reshape(x, [1, -1, 1, 1]))
    m = tf.summary.merge_all()
    m2 = tf.summary.merge([s])
    for t in (s, h, i, m, m2):
        assert t.dtype == tf.string and shape(t) == []
    assert (m.name, m2.name) == ("Merge/MergeSummary:0", "Merge_1/MergeSummary:0")
    assert tf.summary.merge([s], name="mine").name == "mine/mine:0"
    got = sess.run(m, {x: [1.0, 2.0, 255.0]})
    assert isinstance(got, bytes)
    values = tf.Summary.FromString(got).value
    assert [v.tag for v in values] == ["mean_1", "x", "img/image/0"]  # TF: "Mean" took "mean"
    assert values[0].simple_value == pytest.approx(86.0) and values[1].histo.num == 3
    assert values[2].image.height == 3


def test_summary_tags_are_cleaned_and_families_prefixed() -> None:
    with tf.Graph().as_default():
        a = tf.summary.scalar("loss (train)", 1.0)
        b = tf.summary.scalar("lr", 0.1, family="opt")
        assert (a.op.name, b.op.name) == ("loss__train_", "opt/lr")
        assert b.op.get_attr("tag") == "opt/opt/lr"


def test_scalar_summary_of_a_vector_fails_when_run(sess: tf.Session) -> None:
    bad = tf.summary.scalar("bad", tf.zeros([2]))  # as TF: built, then an error of the run
    with pytest.raises(errors.InvalidArgumentError, match="not the same shape"):
        sess.run(bad)


# -- names and dtypes --------------------------------------------------------------------------


def test_reductions_over_all_axes_take_tfs_constant_names() -> None:
    with tf.Graph().as_default():
        data = tf.ones([2, 3])
        tf.reduce_mean(data)  # TF's _ReductionDims adds an unnamed Const of the axes
        tf.reduce_sum(tf.placeholder(tf.float32))  # unknown rank: Rank and range
        assert tf.constant(1.0).name == "Const_1:0"
        assert tf.range(2).name == "range_1:0"
        assert tf.reduce_sum(data, axis=0).name == "Sum_1:0"
        assert tf.constant(2.0).name == "Const_2:0"  # an explicit axis adds none


def test_one_hot_dtype_comes_from_on_and_off_values() -> None:
    with tf.Graph().as_default():
        labels = tf.placeholder(tf.int32, [None])
        assert tf.one_hot(labels, 3).dtype == tf.float32
        assert tf.one_hot(labels, 3, on_value=1, off_value=0).dtype == tf.int32
        assert tf.one_hot(labels, 3, off_value=-1).dtype == tf.int32
        assert tf.one_hot(labels, 3, on_value=1, dtype=tf.float32).dtype == tf.float32  # the hint converts 1
        with pytest.raises(TypeError, match="of on_value does not match dtype parameter"):
            tf.one_hot(labels, 3, on_value=tf.constant(1), dtype=tf.float32)
        with pytest.raises(TypeError, match="does not match dtype <dtype: 'float32'> of off_value"):
            tf.one_hot(labels, 3, on_value=1, off_value=0.0)
        assert tf.one_hot([0, 1], 2, name="t").op.inputs[0].name == "t/indices:0"


# -- control flow ------------------------------------------------------------------------------


def test_cond_branch_returning_an_operation_gives_pred(sess: tf.Session) -> None:
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(0.0)
    out = tf.cond(p, lambda: tf.assign(v, 5.0).op, lambda: tf.no_op())
    assert out.dtype == tf.bool and out.name == "cond/Identity:0"
    sess.run(v.initializer)
    assert sess.run(out, {p: False}) == False and sess.run(v) == 0.0  # noqa: E712
    assert sess.run(out, {p: True}) == True and sess.run(v) == 5.0  # noqa: E712


def test_cond_branch_dtypes_differ_is_a_type_error() -> None:
    with tf.Graph().as_default():
        p = tf.placeholder(tf.bool, [])
        with pytest.raises(TypeError, match="same dtype"):
            tf.cond(p, lambda: tf.zeros([2]), lambda: tf.zeros([2], tf.int32))


# -- printed operations ------------------------------------------------------------------------


def test_str_of_an_operation_is_its_node_def() -> None:
    with tf.Graph().as_default():
        a = tf.constant(2.0, name="a")
        g = tf.group(a.op, tf.no_op(), name="grp")
        assert str(g) == 'name: "grp"\nop: "NoOp"\ninput: "^a"\ninput: "^NoOp"\n'
        text = str(a.op)
        assert text.startswith('name: "a"\nop: "Const"\n') and "float_val: 2" in text  # a scalar: float_val
        assert repr(g) == "<tf.Operation 'grp' type=NoOp>"


# -- gradients ---------------------------------------------------------------------------------


def test_gradients_are_none_through_paths_tf_does_not_differentiate() -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [3])
        w = tf.Variable([1.0, 2.0, 3.0])
        y = x * w
        for out in (tf.cast(tf.argmax(y), tf.float32), tf.stop_gradient(y), tf.round(y), tf.floor(y),
                    tf.cast(y > 1, tf.float32), tf.cast(tf.cast(y, tf.int32), tf.float32)):
            assert tf.gradients(out, [w, x]) == [None, None]
        mixed = tf.gradients(tf.cast(tf.argmax(y), tf.float32) + tf.reduce_sum(w), [w, x])
        assert mixed[0] is not None and mixed[1] is None
        with g.gradient_override_map({"Round": "Identity"}):  # a straight-through estimator
            r = tf.round(y)
        assert tf.gradients(r, x)[0] is not None
        with pytest.raises(ValueError, match="No gradients provided"):
            tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_mean(tf.cast(tf.argmax(y), tf.float32)))


# -- TensorShape and Dimension -----------------------------------------------------------------


def test_shape_dims_are_dimensions_and_indexing_gives_ints() -> None:
    s = tf.TensorShape([None, 3, 4])
    assert s[1] == 3 and type(s[1]) is int and s[0] is None
    assert [d.value for d in s.dims] == [None, 3, 4]
    assert [str(d) for d in s.dims] == ["?", "3", "4"] and repr(s.dims[1]) == "Dimension(3)"
    assert (tf.Dimension(3) + 1).value == 4 and (tf.Dimension(None) * 2).value is None
    assert tf.Dimension(3) == 3 and (tf.Dimension(None) == 3) is None
    assert s.with_rank_at_least(2) is s and s.with_rank_at_most(3) is s
    with pytest.raises(ValueError, match="rank at least 4"):
        s.with_rank_at_least(4)
    with pytest.raises(ValueError, match="rank at most 2"):
        s.with_rank_at_most(2)
    assert tf.TensorShape([tf.Dimension(2), tf.Dimension(None)]).as_list() == [2, None]


def test_tensor_consumers_is_a_method() -> None:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2])
        y = tf.add(x, 1.0, name="y")
        assert x.consumers() == [y.op]


def test_tuple_names_and_a_fed_placeholder_as_control_input(sess: tf.Session) -> None:
    x = tf.placeholder(tf.float32, [2])
    a, b = tf.tuple([x * 2, x + 1])
    (c,) = tf.tuple([x], name="mine")  # its gate has a control edge to the (fed) placeholder
    assert (a.name, b.name, c.name) == ("tuple/control_dependency:0", "tuple/control_dependency_1:0",
                                        "mine/control_dependency:0")
    got = sess.run([a, b, c], {x: [1.0, 2.0]})
    np.testing.assert_allclose(np.stack(got), [[2.0, 4.0], [2.0, 3.0], [1.0, 2.0]])
    with tf.control_dependencies([x.op]):
        d = tf.identity(x * 3)
    np.testing.assert_allclose(sess.run(d, {x: [1.0, 2.0]}), [3.0, 6.0])


def test_in_top_k_names_as_tf() -> None:
    with tf.Graph().as_default():
        p = tf.constant([[0.1, 0.9], [0.8, 0.2]])
        assert tf.nn.in_top_k(p, [1, 1], 1).name == "in_top_k/InTopKV2:0"
        assert tf.nn.in_top_k(p, [1, 0], 1, name="acc").name == "acc/acc:0"


def test_multinomial_and_categorical_as_tf() -> None:
    with tf.Graph().as_default():
        logits = tf.constant([[0.0, 10.0], [10.0, 0.0]])
        a = tf.multinomial(logits, 3)
        b = tf.random.categorical(logits, 2, dtype=tf.int32)
        assert (a.name, a.dtype, a.shape.as_list()) == ("multinomial/Multinomial:0", tf.int64, [2, 3])
        assert (b.name, b.dtype, b.shape.as_list()) == ("categorical/Multinomial:0", tf.int32, [2, 2])
        assert tf.multinomial(logits, 1, name="draw").name == "draw/Multinomial:0"
