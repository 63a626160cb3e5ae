"""SparseTensor: construction, fetch and feed, static-shape rules, gradients, errors.

TF1's values for the same programs are pinned by the ``v31_*`` corpus
programs; these tests cover what the corpus cannot (jaxsess's own errors,
plans over several ``N``, NumPy references).
"""

from __future__ import annotations

import jaxsess.compat.v1 as v1
import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.ops.segment_ops import DataDependentShapeError


def _dense(indices: list[list[int]], values: list[float], shape: list[int]) -> np.ndarray:
    out = np.zeros(shape, np.float32)
    for i, v in zip(indices, values, strict=True):
        out[tuple(i)] += v
    return out


def test_public_names() -> None:
    for name in ("SparseTensor", "SparseTensorValue", "sparse_placeholder", "sparse_tensor_to_dense",
                 "sparse_to_dense", "sparse_reduce_sum", "sparse_tensor_dense_matmul", "sparse_add",
                 "sparse_concat", "string_split", "convert_to_tensor_or_sparse_tensor"):
        assert getattr(v1, name) is getattr(tf, name)
    assert tf.sparse.to_dense is tf.sparse_tensor_to_dense
    assert tf.sparse.sparse_dense_matmul is tf.sparse_tensor_dense_matmul
    assert tf.sparse.placeholder is tf.sparse_placeholder
    assert tf.sparse.reset_shape is tf.sparse_reset_shape and tf.sparse.mask is tf.sparse_mask
    assert tf.sparse.reduce_sum_sparse is tf.sparse_reduce_sum_sparse
    assert tf.sparse.reduce_max_sparse is tf.sparse_reduce_max_sparse
    assert callable(tf.nn.embedding_lookup_sparse) and callable(tf.nn.safe_embedding_lookup_sparse)


def test_construction_checks_the_three_parts() -> None:
    with pytest.raises(ValueError, match="rank 2"):
        tf.SparseTensor([0, 1], [1.0, 2.0], [3])
    with pytest.raises(ValueError, match="2 rows but values have 3"):
        tf.SparseTensor([[0], [1]], [1.0, 2.0, 3.0], [3])
    with pytest.raises(ValueError, match="1 columns but dense_shape has 2"):
        tf.SparseTensor([[0], [1]], [1.0, 2.0], [3, 3])
    st = tf.SparseTensor([[0, 1]], [1.0], [2, 5])
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
    assert st.shape.as_list() == [2, 5] and st.dtype == tf.float32
    assert st.op is st.values.op and st.graph is tf.get_default_graph()


def test_fetch_gives_a_sparse_tensor_value_of_host_arrays(sess: tf.Session) -> None:
    st = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.5], [3, 2])
    out = sess.run({"s": st, "pair": [st, st.values]})
    got = out["s"]
    assert type(got) is tf.SparseTensorValue
    assert got.indices.dtype == np.int64 and got.dense_shape.tolist() == [3, 2]
    assert out["pair"][0].values.tolist() == [1.5, 2.5]
    with sess.as_default():
        assert st.eval().indices.tolist() == [[0, 1], [2, 0]]


def test_eval_without_a_default_session_raises() -> None:
    st = tf.SparseTensor([[0]], [1.0], [1])
    with pytest.raises(ValueError, match="No default session"):
        st.eval()


def test_placeholder_plans_over_several_n(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32, shape=[3, 4])
    b = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
    dense, prod = tf.sparse.to_dense(sp), tf.sparse.sparse_dense_matmul(sp, b)
    for indices, values in [([[0, 1]], [2.0]), ([[0, 0], [1, 3], [2, 2]], [1.0, -1.0, 4.0]),
                            ([[2, 3], [0, 0]], [5.0, 6.0]), ([[0, 1]], [3.0])]:
        want = _dense(indices, values, [3, 4])
        d, p = sess.run([dense, prod], {sp: (indices, values, [3, 4])})
        np.testing.assert_array_equal(d, want)
        np.testing.assert_allclose(p, want @ np.arange(8, dtype=np.float32).reshape(4, 2))


def test_empty_sparse_value(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32, shape=[2, 2])
    value = tf.SparseTensorValue(np.zeros((0, 2), np.int64), np.zeros((0,), np.float32), [2, 2])
    np.testing.assert_array_equal(sess.run(tf.sparse.to_dense(sp), {sp: value}), np.zeros((2, 2)))
    assert sess.run(tf.sparse.reduce_sum(sp), {sp: value}) == 0.0


def test_feed_must_be_a_triple(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32, shape=[2, 2])
    with pytest.raises(TypeError, match="SparseTensorValue"):
        sess.run(tf.sparse.to_dense(sp), {sp: np.zeros((2, 2))})


def test_fed_dense_shape_must_match_the_static_one(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32, shape=[3, None])
    with pytest.raises(ValueError, match=r"dense_shape \[2, 4\]"):
        sess.run(sp, {sp: ([[0, 0]], [1.0], [2, 4])})
    got = sess.run(sp, {sp: ([[0, 0]], [1.0], [3, 7])})
    assert got.dense_shape.tolist() == [3, 7]


def test_a_dense_shape_from_fed_values_raises_at_build_time() -> None:
    shape = tf.placeholder(tf.int64, [2])
    indices = tf.placeholder(tf.int64, [None, 2])
    st = tf.SparseTensor(indices, tf.placeholder(tf.float32, [None]), shape)
    ids = tf.SparseTensor(indices, tf.placeholder(tf.int64, [None]), shape)
    for build in (lambda: tf.sparse.to_dense(st), lambda: tf.sparse.reduce_sum(st, axis=0),
                  lambda: tf.sparse.sparse_dense_matmul(st, tf.ones([2, 2])), lambda: tf.sparse.softmax(st),
                  lambda: tf.sparse.reshape(st, [-1]),
                  lambda: tf.nn.embedding_lookup_sparse(tf.ones([4, 2]), ids, None)):
        with pytest.raises(DataDependentShapeError, match="dense_shape|sparse_placeholder"):
            build()


def test_unshaped_placeholder_plans_per_dense_shape(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32)
    assert sp.shape.ndims is None and sp.dense_shape.shape.as_list() == [None]
    dense = tf.sparse.to_dense(sp)
    rows = tf.sparse.reduce_sum(sp, axis=-1)
    for indices, values, shape in [([[0, 1]], [2.0], [2, 3]), ([[1, 0], [3, 2]], [1.0, 4.0], [4, 3]),
                                   ([[0, 1, 1]], [5.0], [1, 2, 2]), ([[0, 1]], [3.0], [2, 3])]:
        want = _dense(indices, values, shape)
        d, r, v = sess.run([dense, rows, sp], {sp: tf.SparseTensorValue(indices, values, shape)})
        np.testing.assert_array_equal(d, want)
        np.testing.assert_array_equal(r, want.sum(-1))
        assert v.dense_shape.dtype == np.int64 and v.dense_shape.tolist() == shape


def test_partly_shaped_placeholder_keeps_its_known_dims(sess: tf.Session) -> None:
    ids = tf.sparse_placeholder(tf.int64, shape=[None, 5])
    emb = tf.nn.embedding_lookup_sparse(tf.ones([4, 3]), ids, None, combiner="sum")
    prod = tf.sparse.sparse_dense_matmul(tf.sparse_placeholder(tf.float32, shape=[None, 5]), tf.ones([5, 2]))
    assert emb.shape.as_list() == [None, 3] and prod.shape.as_list() == [None, 2]
    out = sess.run(emb, {ids: ([[0, 0], [0, 4], [2, 1]], [1, 2, 3], [4, 5])})
    np.testing.assert_array_equal(out, [[2.0] * 3, [0.0] * 3, [1.0] * 3, [0.0] * 3])
    with pytest.raises(ValueError, match=r"Cannot feed dense_shape \[4, 6\]"):
        sess.run(emb, {ids: ([[0, 0]], [1], [4, 6])})


def test_full_reduce_sum_needs_no_dense_shape(sess: tf.Session) -> None:
    free = tf.sparse_placeholder(tf.float32)
    assert sess.run(tf.sparse.reduce_sum(free), {free: ([[0, 0], [5, 1]], [1.0, 2.5], [6, 2])}) == 3.5


def test_data_dependent_counts_need_build_time_values() -> None:
    sp = tf.sparse_placeholder(tf.float32, shape=[2, 2])
    mask = tf.placeholder(tf.bool, [None])
    with pytest.raises(DataDependentShapeError, match="sparse_retain"):
        tf.sparse_retain(sp, mask)
    with pytest.raises(DataDependentShapeError, match="sparse_add"):
        tf.sparse_add(sp, sp)
    with pytest.raises(DataDependentShapeError, match="from_dense"):
        tf.sparse.from_dense(tf.placeholder(tf.float32, [2]))
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.sparse_add(tf.ones([2]), tf.ones([2]))


def test_sparse_retain_of_fed_indices_with_a_constant_mask(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32, shape=[2, 3])
    kept = tf.sparse_retain(sp, [False, True, True])
    got = sess.run(kept, {sp: ([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 3.0], [2, 3])})
    assert got.indices.tolist() == [[0, 2], [1, 1]] and got.values.tolist() == [2.0, 3.0]


@pytest.mark.parametrize("adjoint_a", [False, True])
def test_matmul_gradients_match_the_dense_product(sess: tf.Session, adjoint_a: bool) -> None:
    indices, values = [[0, 1], [1, 0], [2, 1], [2, 2]], [1.0, -2.0, 0.5, 3.0]
    a_np = _dense(indices, values, [3, 3])
    b_np = np.arange(6, dtype=np.float32).reshape(3, 2) - 2.0
    sp = tf.SparseTensor(indices, values, [3, 3])
    b = tf.constant(b_np)
    prod = tf.sparse.sparse_dense_matmul(sp, b, adjoint_a=adjoint_a)
    g_b, g_v = tf.gradients(tf.reduce_sum(tf.square(prod)), [b, sp.values])
    a_eff = a_np.T if adjoint_a else a_np
    want = a_eff @ b_np
    got, gb, gv = sess.run([prod, g_b, g_v])
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(gb, a_eff.T @ (2 * want))
    g_dense = 2 * want @ b_np.T  # d loss / d a_eff
    g_a = g_dense.T if adjoint_a else g_dense
    np.testing.assert_allclose(gv, [g_a[tuple(i)] for i in indices])


def test_matmul_checks_the_inner_dimension() -> None:
    sp = tf.SparseTensor([[0, 0]], [1.0], [2, 3])
    with pytest.raises(ValueError, match="dimensions must be equal, but are 3"):
        tf.sparse.sparse_dense_matmul(sp, tf.ones([2, 2]))
    with pytest.raises(ValueError, match="rank 2"):
        tf.sparse.sparse_dense_matmul(tf.SparseTensor([[0, 0, 0]], [1.0], [1, 1, 1]), tf.ones([1, 1]))


def test_embedding_lookup_sparse_against_numpy(sess: tf.Session) -> None:
    params_np = np.arange(12, dtype=np.float32).reshape(4, 3)
    ids = tf.sparse_placeholder(tf.int64, shape=[3, None])
    w = tf.sparse_placeholder(tf.float32, shape=[3, None])
    params = tf.constant(params_np)
    outs = {c: tf.nn.embedding_lookup_sparse(params, ids, w, combiner=c) for c in ("sum", "mean", "sqrtn")}
    idx = [[0, 0], [0, 1], [2, 0]]
    feed = {ids: (idx, [1, 3, 2], [3, 2]), w: (idx, [2.0, 1.0, 4.0], [3, 2])}
    got = sess.run(outs, feed)
    s0 = 2 * params_np[1] + params_np[3]
    np.testing.assert_allclose(got["sum"], [s0, np.zeros(3), 4 * params_np[2]])
    np.testing.assert_allclose(got["mean"], [s0 / 3, np.zeros(3), params_np[2]])
    np.testing.assert_allclose(got["sqrtn"], [s0 / np.sqrt(5.0), np.zeros(3), params_np[2]], rtol=1e-6)
    with pytest.raises(ValueError, match="combiner"):
        tf.nn.embedding_lookup_sparse(params, ids, None, combiner="max")


def test_a_rejected_sparse_feed_leaves_variables_unchanged(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32, shape=[2, 2])
    w = tf.Variable(np.ones((2, 1), np.float32))
    step = tf.train.GradientDescentOptimizer(1.0).minimize(tf.reduce_sum(tf.sparse.sparse_dense_matmul(sp, w)))
    sess.run(tf.global_variables_initializer())
    with pytest.raises(ValueError, match="Cannot feed value of shape"):
        sess.run(step, {sp: ([[0, 0, 0]], [1.0], [2, 2])})  # indices of rank-3 positions
    np.testing.assert_array_equal(sess.run(w), np.ones((2, 1)))
    sess.run(step, {sp: ([[0, 1]], [1.0], [2, 2])})
    np.testing.assert_array_equal(sess.run(w), [[1.0], [0.0]])


def test_string_split_feeds_the_device_plan(sess: tf.Session) -> None:
    lines = tf.placeholder(tf.string, [None])
    words = tf.string_split(lines)
    ones = tf.SparseTensor(words.indices, tf.ones_like(words.indices[:, 0], dtype=tf.float32), words.dense_shape)
    sp = tf.sparse_placeholder(tf.float32, shape=[1, 1])
    total = tf.sparse.reduce_sum(ones) + tf.sparse.reduce_sum(sp)
    for text, n in ((["a b c", "d"], 4), (["x"], 1)):
        got = sess.run([words, total], {lines: text, sp: ([[0, 0]], [10.0], [1, 1])})
        assert got[0].values.tolist() == b" ".join(t.encode() for t in text).split()
        assert got[1] == n + 10.0


def test_graph_def_round_trip(sess: tf.Session) -> None:
    g = tf.Graph()
    with g.as_default():
        sp = tf.sparse_placeholder(tf.float32, shape=[2, 3], name="sp")
        tf.sparse.to_dense(sp, name="dense")
        tf.sparse.reduce_sum(sp, axis=0, keepdims=True, name="rs")
        tf.sparse.sparse_dense_matmul(sp, tf.ones([3, 2]), name="mm")
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(g.as_graph_def(), name="")
        with tf.Session() as s2:
            feed = {"sp/indices:0": [[0, 1], [1, 2]], "sp/values:0": [1.0, 2.0]}
            d, r, m = s2.run(["dense:0", "rs:0", "mm/SparseTensorDenseMatMul:0"], feed)
    want = _dense([[0, 1], [1, 2]], [1.0, 2.0], [2, 3])
    np.testing.assert_array_equal(d, want)
    np.testing.assert_array_equal(r, want.sum(0, keepdims=True))
    np.testing.assert_array_equal(m, want @ np.ones((3, 2)))


def test_ctc_loss_arguments_and_long_labels(sess: tf.Session) -> None:
    logits = tf.constant(np.zeros((2, 2, 3), np.float32))  # [time, batch, classes]
    labels = tf.SparseTensor([[0, 0], [1, 0], [1, 1], [1, 2]], [0, 1, 0, 1], [2, 3])
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.nn.ctc_loss(tf.constant([[0, 1]]), logits, [2, 2])
    with pytest.raises(NotImplementedError, match="ctc_merge_repeated"):
        tf.nn.ctc_loss(labels, logits, [2, 2], ctc_merge_repeated=False)
    with pytest.raises(ValueError, match="rank 3"):
        tf.nn.ctc_loss(labels, tf.zeros([2, 3]), [2, 2])
    kept = tf.nn.ctc_loss(labels, logits, [2, 2], ignore_longer_outputs_than_inputs=True)
    assert kept.shape.as_list() == [2]
    out = sess.run(kept)
    # entry 0: label [0] over 2 uniform steps of 3 classes: paths "0b", "b0", "00" -> 3 * (1/3)^2
    np.testing.assert_allclose(out, [-np.log(3 / 9), 0.0], rtol=1e-5)


def test_padding_entries_past_the_last_row_are_dropped(sess: tf.Session) -> None:
    """The README's advice for bounding compiles: pad N with entries at row ``dense_shape[0]``."""
    ids = tf.sparse_placeholder(tf.int64, shape=[2, None])
    sp = tf.sparse_placeholder(tf.float32, shape=[2, 3])
    params = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    outs = [tf.nn.embedding_lookup_sparse(params, ids, None, combiner=c) for c in ("sum", "mean", "sqrtn")]
    outs += [tf.sparse.to_dense(sp), tf.sparse.reduce_sum(sp, axis=1), tf.sparse.reduce_max(sp, axis=1), tf.sparse.reduce_sum(sp, axis=0), tf.sparse.reduce_sum(sp),
             tf.sparse.sparse_dense_matmul(sp, tf.ones([3, 2]))]
    real = {ids: ([[0, 0], [1, 0], [1, 1]], [1, 2, 3], [2, 5]), sp: ([[0, 1], [1, 2]], [4.0, -5.0], [2, 3])}
    padded = {ids: ([[0, 0], [1, 0], [1, 1], [2, 0], [2, 0]], [1, 2, 3, 0, 0], [2, 5]),
              sp: ([[0, 1], [1, 2], [2, 0], [2, 0]], [4.0, -5.0, 0.0, 0.0], [2, 3])}
    for want, got in zip(sess.run(outs, real), sess.run(outs, padded), strict=True):
        np.testing.assert_array_equal(got, want)


def test_sparse_ops_execute_eagerly() -> None:
    with tf.EagerSession():
        st = tf.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 3])
        assert st.shape.as_list() == [2, 3]
        np.testing.assert_array_equal(np.asarray(tf.sparse.to_dense(st)), [[0, 1, 0], [2, 0, 0]])
        np.testing.assert_array_equal(np.asarray(tf.sparse.reduce_sum(st, axis=1)), [1.0, 2.0])
        prod = tf.sparse.sparse_dense_matmul(st, np.ones((3, 2), np.float32))
        np.testing.assert_array_equal(np.asarray(prod), [[1, 1], [2, 2]])
        with pytest.raises(RuntimeError, match="eager"):
            tf.sparse_placeholder(tf.float32)


def test_matmul_of_an_unshaped_placeholder(sess: tf.Session) -> None:
    sp = tf.sparse_placeholder(tf.float32)
    b = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    prod = tf.sparse.sparse_dense_matmul(sp, b, adjoint_a=True)
    assert prod.shape.as_list() == [None, 2]
    got = sess.run(prod, {sp: ([[0, 1], [1, 2]], [1.0, 2.0], [2, 3])})
    np.testing.assert_array_equal(got, _dense([[0, 1], [1, 2]], [1.0, 2.0], [2, 3]).T @ [[1, 2], [3, 4]])
    # the inner dimension is checked when the run is traced (TF: at run time)
    with pytest.raises(tf.errors.InvalidArgumentError, match="inner dimension does not match: 3 vs. 2"):
        sess.run(prod, {sp: ([[0, 1]], [1.0], [3, 2])})


def test_sparse_surface_and_grad_pass_through() -> None:
    with pytest.raises(ValueError, match=r"axis 3 is out of range"):
        tf.sparse.expand_dims(tf.SparseTensor([[0, 1]], [1.0], [2, 3]), 3)
    x = tf.constant([0.4, 1.6])
    y = tf.grad_pass_through(lambda v: tf.round(v) * 3.0)(x)
    g = tf.gradients(tf.reduce_sum(y), x)[0]
    ind = tf.sparse.to_indicator(tf.SparseTensor([[0, 0], [0, 1]], tf.constant([1, 9], tf.int64), [1, 2]), 3)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g), [1.0, 1.0])
        np.testing.assert_array_equal(sess.run(ind), [[False, True, False]])  # id 9 outside the vocabulary


def test_reduce_sum_sparse_needs_constant_indices_and_reset_shape_checks_a_fed_shape() -> None:
    """``reduce_*_sparse`` has as many entries as the indices decide: fed indices are refused when
    the graph is built; ``reset_shape`` to a fed shape checks it is not smaller at run time, as TF."""
    with tf.Graph().as_default():
        idx = tf.placeholder(tf.int64, [None, 2])
        sp = tf.SparseTensor(idx, tf.ones([3]), [4, 4])
        with pytest.raises(NotImplementedError, match="reduce_sum_sparse: the output shape depends on"):
            tf.sparse.reduce_sum_sparse(sp, axis=1)
        const = tf.SparseTensor([[0, 1], [2, 3]], [1.0, 2.0], [4, 4])
        new = tf.placeholder(tf.int64, [2])
        out = tf.sparse.reset_shape(const, new)
        with tf.Session() as s:
            assert s.run(out.dense_shape, {new: [5, 6]}).tolist() == [5, 6]
            with pytest.raises(tf.errors.InvalidArgumentError):
                s.run(out.dense_shape, {new: [3, 6]})
