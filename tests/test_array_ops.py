"""Tests of the array ops (``jaxsess._tf1.ops.array_ops``): values against NumPy,
static shapes and dtypes at build time (with unknown dimensions), names,
eager execution, shape-like arguments computed from shapes, and errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors
from jaxsess._core.graph._builder import constant_value
from jaxsess._tf1.ops import array_ops as A


@pytest.fixture(autouse=True)
def fresh_graph() -> None:
    tf.reset_default_graph()


X23 = np.arange(6, dtype=np.float32).reshape(2, 3)
X234 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
X131 = np.arange(3, dtype=np.float32).reshape(1, 3, 1)
I3 = np.array([2, 0, 1], np.int32)

Case = tuple[str, list[np.ndarray], Callable[..., Any], Callable[..., Any], Any]
NO_PARTIAL = "skip"

# (id, inputs, op on tensors, NumPy reference, static shape when the first
# input's dim 0 is unknown -- or NO_PARTIAL)
CASES: list[Case] = [
    ("reshape", [X23], lambda x: A.reshape(x, [3, 2]), lambda x: x.reshape(3, 2), [3, 2]),
    ("reshape_infer", [X234], lambda x: A.reshape(x, [-1, 4]), lambda x: x.reshape(-1, 4), [None, 4]),
    ("reshape_flat", [X23], lambda x: A.reshape(x, [-1]), lambda x: x.reshape(-1), [None]),
    ("reshape_const_tensor", [X23], lambda x: A.reshape(x, tf.constant([3, -1])), lambda x: x.reshape(3, -1),
     [3, None]),
    ("reshape_scalar", [np.array([7.0], np.float32)], lambda x: A.reshape(x, []), lambda x: x.reshape(()), []),
    ("transpose_default", [X234], lambda x: A.transpose(x), lambda x: x.T, [4, 3, None]),
    ("transpose_perm", [X234], lambda x: A.transpose(x, [1, 0, 2]), lambda x: x.transpose(1, 0, 2), [3, None, 4]),
    ("concat0", [X23, X23 + 10], lambda x, y: A.concat([x, y], 0), lambda x, y: np.concatenate([x, y], 0),
     [None, 3]),
    ("concat_neg", [X23, X23[:, :2]], lambda x, y: A.concat([x, y], -1), lambda x, y: np.concatenate([x, y], -1),
     NO_PARTIAL),
    ("concat_python_values", [X23], lambda x: A.concat([x, [[9.0, 9.0, 9.0]]], 0),
     lambda x: np.concatenate([x, np.float32([[9, 9, 9]])], 0), [None, 3]),
    ("stack0", [X23, X23 * 2], lambda x, y: A.stack([x, y]), lambda x, y: np.stack([x, y]), NO_PARTIAL),
    ("stack1", [X23, X23 * 2], lambda x, y: A.stack([x, y], axis=1), lambda x, y: np.stack([x, y], 1),
     NO_PARTIAL),
    ("squeeze_all", [X131], lambda x: A.squeeze(x), lambda x: np.squeeze(x), None),
    ("squeeze_axis", [X131], lambda x: A.squeeze(x, [2]), lambda x: np.squeeze(x, 2), [None, 3]),
    ("squeeze_dims_alias", [X131], lambda x: A.squeeze(x, squeeze_dims=[0]), lambda x: np.squeeze(x, 0),
     [3, 1]),
    ("expand_dims0", [X23], lambda x: A.expand_dims(x, 0), lambda x: x[None], [1, None, 3]),
    ("expand_dims_last", [X23], lambda x: A.expand_dims(x, -1), lambda x: x[..., None], [None, 3, 1]),
    ("tile", [X23], lambda x: A.tile(x, [2, 3]), lambda x: np.tile(x, (2, 3)), [None, 9]),
    ("pad_constant", [X23], lambda x: A.pad(x, [[1, 0], [2, 1]]), lambda x: np.pad(x, ((1, 0), (2, 1))),
     [None, 6]),
    ("pad_value", [X23], lambda x: A.pad(x, [[1, 1], [0, 0]], constant_values=5),
     lambda x: np.pad(x, ((1, 1), (0, 0)), constant_values=5), [None, 3]),
    ("pad_reflect", [X23], lambda x: A.pad(x, [[1, 1], [2, 2]], "REFLECT"),
     lambda x: np.pad(x, ((1, 1), (2, 2)), "reflect"), [None, 7]),
    ("pad_symmetric", [X23], lambda x: A.pad(x, [[2, 2], [3, 1]], mode="symmetric"),
     lambda x: np.pad(x, ((2, 2), (3, 1)), "symmetric"), [None, 7]),
    ("gather0", [X23, np.array([1, 0, 1], np.int32)], lambda p, i: A.gather(p, i),
     lambda p, i: p[i], NO_PARTIAL),
    ("gather_axis1", [X23, I3], lambda p, i: A.gather(p, i, axis=1), lambda p, i: p[:, i], [None, 3]),
    ("gather_2d_indices", [X234, np.array([[0, 3], [1, 1]], np.int32)], lambda p, i: A.gather(p, i, axis=-1),
     lambda p, i: p[..., i], [None, 3, 2, 2]),
    ("gather_batch_dims", [X234, np.array([[0, 2], [1, 1]], np.int32)],
     lambda p, i: A.gather(p, i, axis=1, batch_dims=1),
     lambda p, i: np.stack([p[b][i[b]] for b in range(2)]), NO_PARTIAL),
    ("gather_nd", [X234, np.array([[0, 1], [1, 2]], np.int32)], lambda p, i: A.gather_nd(p, i),
     lambda p, i: p[i[:, 0], i[:, 1]], NO_PARTIAL),
    ("one_hot", [np.array([0, 2, -1, 5], np.int32)], lambda i: A.one_hot(i, 3),
     lambda i: np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]], np.float32), [None, 3]),
    ("one_hot_axis0_values", [np.array([1, 0], np.int32)], lambda i: A.one_hot(i, 3, 5.0, -1.0, axis=0),
     lambda i: np.array([[-1, 5], [5, -1], [-1, -1]], np.float32), [3, None]),
    ("one_hot_int", [np.array([1], np.int32)], lambda i: A.one_hot(i, 2, dtype=tf.int32),
     lambda i: np.array([[0, 1]], np.int32), [None, 2]),
    ("zeros_like", [X23], lambda x: A.zeros_like(x), np.zeros_like, [None, 3]),
    ("ones_like_dtype", [X23], lambda x: A.ones_like(x, dtype=tf.int32), lambda x: np.ones(x.shape, np.int32),
     [None, 3]),
    ("zeros_like_int", [I3], lambda x: A.zeros_like(x), np.zeros_like, [None]),
    ("shape", [X234], lambda x: A.shape(x), lambda x: np.array(x.shape, np.int32), [3]),
    ("size", [X234], lambda x: A.size(x), lambda x: np.array(x.size, np.int32), []),
    ("rank", [X234], lambda x: A.rank(x), lambda x: np.array(x.ndim, np.int32), []),
    ("reverse0", [X23], lambda x: A.reverse(x, [0]), lambda x: x[::-1], [None, 3]),
    ("reverse_both", [X23], lambda x: A.reverse(x, [0, -1]), lambda x: x[::-1, ::-1], [None, 3]),
    ("slice", [X234], lambda x: A.slice(x, [0, 1, 1], [2, -1, 2]), lambda x: x[0:2, 1:, 1:3], [2, 2, 2]),
    ("slice_rest", [X23], lambda x: A.slice(x, [1, 0], [-1, 2]), lambda x: x[1:, :2], [None, 2]),
    ("broadcast_to", [np.array([1.0, 2.0, 3.0], np.float32)], lambda x: A.broadcast_to(x, [2, 3]),
     lambda x: np.broadcast_to(x, (2, 3)), [2, 3]),
    ("getitem_mix", [X234], lambda x: A.reshape(x[:, 1], [-1]), lambda x: x[:, 1].reshape(-1), [None]),
]

NO_INPUT_CASES: list[tuple[str, Callable[[], Any], np.ndarray]] = [
    ("zeros", lambda: A.zeros([2, 3]), np.zeros((2, 3), np.float32)),
    ("zeros_int", lambda: A.zeros((2,), dtype=tf.int32), np.zeros(2, np.int32)),
    ("ones", lambda: A.ones([3]), np.ones(3, np.float32)),
    ("ones_bool", lambda: A.ones([2], tf.bool), np.ones(2, bool)),
    ("ones_scalar_shape", lambda: A.ones(4), np.ones(4, np.float32)),
    ("fill", lambda: A.fill([2, 2], 7), np.full((2, 2), 7, np.int32)),
    ("fill_float", lambda: A.fill(tf.constant([3]), 0.5), np.full(3, 0.5, np.float32)),
    ("range", lambda: A.range(5), np.arange(5, dtype=np.int32)),
    ("range_start_limit_delta", lambda: A.range(1, 10, 3), np.arange(1, 10, 3, dtype=np.int32)),
    ("range_negative", lambda: A.range(5, 0, -2), np.arange(5, 0, -2, dtype=np.int32)),
    ("range_float", lambda: A.range(0.0, 1.0, 0.25), np.arange(0, 1, 0.25, dtype=np.float32)),
    ("range_dtype", lambda: A.range(3, dtype=tf.float32), np.arange(3, dtype=np.float32)),
    ("range_tensor", lambda: A.range(tf.constant(4)), np.arange(4, dtype=np.int32)),
    ("range_empty", lambda: A.range(3, 1), np.arange(3, 1, dtype=np.int32)),
]


def _values(out: Any) -> list[Any]:
    return list(out) if isinstance(out, list | tuple) else [out]


def _check_values(got: Any, want: Any) -> None:
    got_l, want_l = _values(got), _values(want)
    assert len(got_l) == len(want_l)
    for g, w in zip(got_l, want_l, strict=True):
        w = np.asarray(w)
        assert np.asarray(g).dtype == w.dtype
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_graph_matches_numpy_with_static_shapes(case: Case) -> None:
    _, inputs, fn, ref, _ = case
    phs = [tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in inputs]
    out = fn(*phs)
    want = ref(*inputs)
    for t, w in zip(_values(out), _values(want), strict=True):
        assert t.shape.as_list() == list(np.shape(w))
        assert t.dtype == np.asarray(w).dtype
    with tf.Session() as s:
        _check_values(s.run(out, dict(zip(phs, inputs, strict=True))), want)


@pytest.mark.parametrize("case", [c for c in CASES if not isinstance(c[4], str)], ids=lambda c: c[0])
def test_unknown_batch_dimension(case: Case) -> None:
    _, inputs, fn, ref, partial = case
    first = [None, *inputs[0].shape[1:]] if inputs[0].ndim else []
    phs = [tf.placeholder(tf.as_dtype(inputs[0].dtype), first)]
    phs += [tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in inputs[1:]]
    out = fn(*phs)
    if partial is None:
        assert out.shape.ndims is None
    else:
        assert out.shape.as_list() == partial
    with tf.Session() as s:
        _check_values(s.run(out, dict(zip(phs, inputs, strict=True))), ref(*inputs))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_eager_matches_numpy(case: Case) -> None:
    _, inputs, fn, ref, _ = case
    with tf.EagerSession():
        out = fn(*[tf.constant(a) for a in inputs])
        for o in _values(out):
            assert isinstance(o, jax.Array)
        _check_values(out, ref(*inputs))


@pytest.mark.parametrize("case", NO_INPUT_CASES, ids=[c[0] for c in NO_INPUT_CASES])
def test_creation_ops_graph_and_eager(case: tuple[str, Callable[[], Any], np.ndarray]) -> None:
    _, fn, want = case
    t = fn()
    assert t.shape.as_list() == list(want.shape)
    assert t.dtype == want.dtype
    with tf.Session() as s:
        _check_values(s.run(t), want)
    np.testing.assert_array_equal(constant_value(t), want)
    with tf.EagerSession():
        out = fn()
        assert isinstance(out, jax.Array)
        _check_values(out, want)


# -- lists of outputs -----------------------------------------------------------------


@pytest.mark.parametrize(
    "fn, ref",
    [
        (lambda x: A.unstack(x), lambda x: list(x)),
        (lambda x: A.unstack(x, axis=1), lambda x: [x[:, i] for i in range(3)]),
        (lambda x: A.unstack(x, num=3, axis=-1), lambda x: [x[:, i] for i in range(3)]),
        (lambda x: A.split(x, 3, axis=1), lambda x: np.split(x, 3, axis=1)),
        (lambda x: A.split(x, [1, 2], 1), lambda x: np.split(x, [1], axis=1)),
        (lambda x: A.split(x, [2, -1], axis=-1), lambda x: np.split(x, [2], axis=1)),
        (lambda x: A.split(x, 1), lambda x: [x]),
        (lambda x: A.unstack(A.reshape(x, [1, 6])), lambda x: [x.reshape(6)]),
    ],
)
def test_list_outputs(fn: Callable[..., Any], ref: Callable[..., Any]) -> None:
    x = tf.constant(X23)
    out = fn(x)
    want = ref(X23)
    assert isinstance(out, list) and len(out) == len(want)
    assert [t.shape.as_list() for t in out] == [list(w.shape) for w in want]
    with tf.Session() as s:
        _check_values(s.run(out), want)
    with tf.EagerSession():
        got = fn(tf.constant(X23))
        assert isinstance(got, list) and all(isinstance(g, jax.Array) for g in got)
        _check_values(got, want)


def test_unstack_and_split_names_and_unknown_dims() -> None:
    x = tf.placeholder(tf.float32, [None, 2])
    a, b = A.unstack(x, axis=1)
    assert (a.name, b.name) == ("unstack:0", "unstack:1")
    assert a.shape.as_list() == [None]
    parts = A.split(x, 2, axis=0, name="halves")
    assert [p.name for p in parts] == ["halves:0", "halves:1"]
    assert parts[0].shape.as_list() == [None, 2]
    with tf.Session() as s:
        got = s.run(parts, {x: np.arange(8, dtype=np.float32).reshape(4, 2)})
        np.testing.assert_array_equal(got[1], [[4, 5], [6, 7]])
    with pytest.raises(ValueError, match="Cannot infer argument `num`"):
        A.unstack(x)


def test_unstack_empty_dimension() -> None:
    assert A.unstack(A.zeros([0, 3])) == []


# -- names, dtypes -----------------------------------------------------------------------


def test_default_names_are_unique_and_name_argument_is_used() -> None:
    x = tf.constant(X23)
    assert A.reshape(x, [6]).name == "Reshape:0"
    assert A.reshape(x, [6]).name == "Reshape_1:0"
    assert A.reshape(x, [6], name="flat").name == "flat:0"
    assert A.transpose(x).name == "transpose:0"
    assert A.concat([x, x], 0).name == "concat:0"
    assert A.stack([x, x]).name == "stack:0"
    assert A.zeros([2]).name == "zeros:0"
    assert A.zeros([2]).name == "zeros_1:0"
    assert A.ones([2], name="o").name == "o:0"
    assert A.range(3).name == "range:0"
    assert A.shape(x).name == "Shape:0"
    assert A.one_hot([1], 2).name == "one_hot:0"
    with tf.name_scope("blk"):
        assert A.pad(x, [[0, 0], [1, 1]]).name == "blk/Pad:0"
        assert A.zeros([1]).name == "blk/zeros:0"


def test_zeros_like_keeps_dtype_and_shape_out_type() -> None:
    i = tf.placeholder(tf.int32, [None, 2])
    assert A.zeros_like(i).dtype == tf.int32
    assert A.ones_like(tf.constant([True])).dtype == tf.bool
    assert A.shape(i).dtype == tf.int32
    assert A.shape(i, out_type=tf.int64).dtype == tf.dtypes.canonical(tf.int64)
    assert A.size(i).dtype == tf.int32


def test_concat_single_value_is_identity() -> None:
    x = tf.constant(X23)
    y = A.concat([x], 0)
    assert y.op.type == "Identity"


# -- shapes of unknown size --------------------------------------------------------------


def test_shape_of_unknown_dims_is_computed_at_run_time() -> None:
    x = tf.placeholder(tf.float32, [None, 3])
    s = A.shape(x)
    n = A.size(x)
    assert s.shape.as_list() == [2]
    assert constant_value(s) is None
    with tf.Session() as sess:
        got_s, got_n = sess.run([s, n], {x: np.zeros((5, 3))})
        np.testing.assert_array_equal(got_s, [5, 3])
        assert got_n == 15
        np.testing.assert_array_equal(sess.run(s, {x: np.zeros((2, 3))}), [2, 3])


def test_shape_of_unknown_rank() -> None:
    x = tf.placeholder(tf.float32)
    s, r = A.shape(x), A.rank(x)
    assert s.shape.as_list() == [None]
    assert r.shape.as_list() == []
    with tf.Session() as sess:
        got_s, got_r = sess.run([s, r], {x: np.zeros((2, 1, 4))})
        np.testing.assert_array_equal(got_s, [2, 1, 4])
        assert got_r == 3


def test_shape_of_known_shape_folds() -> None:
    x = tf.placeholder(tf.float32, [2, 3])
    np.testing.assert_array_equal(constant_value(A.shape(x)), [2, 3])
    assert constant_value(A.size(x)) == 6
    assert constant_value(A.rank(tf.placeholder(tf.float32, [None, None]))) == 2
    # A shape given by the shape of a known tensor folds to a static reshape.
    y = A.reshape(tf.constant(np.arange(6.0)), A.shape(x))
    assert y.op.type == "Reshape"
    assert y.shape.as_list() == [2, 3]


DYNAMIC: list[tuple[str, Callable[[Any], Any], Callable[[np.ndarray], np.ndarray], list[Any]]] = [
    ("reshape", lambda x: A.reshape(x, [A.shape(x)[0], -1]), lambda v: v.reshape(v.shape[0], -1), [None, 6]),
    ("reshape_concat", lambda x: A.reshape(x, A.concat([A.shape(x)[:1], [3, -1]], 0)),
     lambda v: v.reshape(v.shape[0], 3, -1), [None, 3, 2]),
    ("reshape_other_tensor", lambda x: A.reshape(A.transpose(x, [1, 2, 0]), [A.shape(x)[0], -1]),
     lambda v: v.transpose(1, 2, 0).reshape(v.shape[0], -1), [None, None]),
    ("reshape_stack", lambda x: A.reshape(x, A.stack([A.shape(x)[0], 6])), lambda v: v.reshape(-1, 6),
     [None, 6]),
    ("reshape_shape_tensor", lambda x: A.reshape(x, A.shape(x)), lambda v: v, [None, 2, 3]),
    ("zeros", lambda x: A.zeros([A.shape(x)[0], 4]), lambda v: np.zeros((v.shape[0], 4), np.float32), [None, 4]),
    ("ones_shape", lambda x: A.ones(A.shape(x)[:2], tf.int32), lambda v: np.ones(v.shape[:2], np.int32),
     [None, 2]),
    ("fill", lambda x: A.fill(A.shape(x), 7.0), lambda v: np.full(v.shape, 7, np.float32), [None, 2, 3]),
    ("range", lambda x: A.range(A.shape(x)[0]), lambda v: np.arange(v.shape[0], dtype=np.int32), [None]),
    ("range_size", lambda x: A.range(0, A.size(x), 2), lambda v: np.arange(0, v.size, 2, dtype=np.int32),
     [None]),
    ("tile", lambda x: A.tile(x, [1, A.shape(x)[0], 1]), lambda v: np.tile(v, (1, v.shape[0], 1)),
     [None, None, 3]),
    ("slice", lambda x: A.slice(x, [0, 0, 1], [A.shape(x)[0] - 1, 2, 2]), lambda v: v[: v.shape[0] - 1, :, 1:],
     [None, 2, 2]),
    ("broadcast_to", lambda x: A.broadcast_to(tf.constant([1.0, 2.0, 3.0]), A.shape(x)),
     lambda v: np.broadcast_to(np.float32([1, 2, 3]), v.shape), [None, 2, 3]),
]


@pytest.mark.parametrize("case", DYNAMIC, ids=[c[0] for c in DYNAMIC])
def test_shape_arguments_computed_from_unknown_shapes(case: Any) -> None:
    _, fn, ref, partial = case
    x = tf.placeholder(tf.float32, [None, 2, 3])
    y = fn(x)
    assert y.op.type.startswith("Dynamic")
    assert y.shape.as_list() == partial
    with tf.Session() as s:
        for n in (2, 5):
            v = np.arange(n * 6, dtype=np.float32).reshape(n, 2, 3)
            _check_values(s.run(y, {x: v}), ref(v))


def test_shape_argument_from_fed_value_raises_naming_argument() -> None:
    x = tf.placeholder(tf.float32, [None, 3])
    p = tf.placeholder(tf.int32, [2])
    with pytest.raises(ValueError, match="reshape: argument 'shape'.*Placeholder_1:0"):
        A.reshape(x, p)
    with pytest.raises(ValueError, match="argument 'multiples'"):
        A.tile(x, [p[0], 1])
    with pytest.raises(ValueError, match="argument 'dims'"):
        A.fill(p, 1.0)
    with pytest.raises(ValueError, match="argument 'limit'"):
        A.range(p[0])
    with pytest.raises(ValueError, match="argument 'perm'"):
        A.transpose(x, p)
    with pytest.raises(ValueError, match="argument 'axis'"):
        A.concat([x, x], p[0])
    with pytest.raises(ValueError, match="argument 'depth'"):
        A.one_hot([1], p[0])
    with pytest.raises(ValueError, match="argument 'paddings'"):
        A.pad(x, A.stack([p, p]))


def test_reshape_with_shared_unknown_dimension_checks_the_rest() -> None:
    x = tf.placeholder(tf.float32, [None, 4, 4])
    with pytest.raises(ValueError, match="16 elements besides the unknown dimensions they share"):
        A.reshape(x, [A.shape(x)[0], 5])
    assert A.reshape(x, [A.shape(x)[0], 2, 8]).shape.as_list() == [None, 2, 8]


def test_shape_argument_with_none_entry_raises() -> None:
    x = tf.placeholder(tf.float32, [None, 3])
    with pytest.raises(ValueError, match="unknown"):
        A.reshape(x, [x.shape[0], 3])


# -- errors ------------------------------------------------------------------------------


def test_bad_reshape_names_node() -> None:
    x = tf.constant(np.arange(6.0, dtype=np.float32))
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 6 elements to shape \[4\].*node 'Reshape'"):
        A.reshape(x, [4])
    with pytest.raises(ValueError, match=r"node 'r2'"):
        A.reshape(x, [4, -1], name="r2")
    with pytest.raises(ValueError, match="multiple unknown"):
        A.reshape(x, [-1, -1])


def test_bad_reshape_at_run_time_is_invalid_argument() -> None:
    x = tf.placeholder(tf.float32, [None, 3])
    y = A.reshape(x, [2, -1])
    assert y.shape.as_list() == [2, None]
    with tf.Session() as s:
        with pytest.raises(errors.InvalidArgumentError, match="Reshape"):
            s.run(y, {x: np.zeros((3, 3))})
        assert s.run(y, {x: np.zeros((4, 3))}).shape == (2, 6)


@pytest.mark.parametrize(
    "build, exc, match",
    [
        (lambda x: A.transpose(x, [0, 0]), ValueError, "not a permutation"),
        (lambda x: A.transpose(x, [1, 0, 2]), ValueError, "Transpose"),
        (lambda x: A.concat([x, tf.constant([[1, 2, 3]])], 0), TypeError, "same dtype"),
        (lambda x: A.concat([x, A.zeros([2, 2])], 0), ValueError, "node 'concat'"),
        (lambda x: A.stack([x, A.zeros([3, 2])]), ValueError, "Pack"),
        (lambda x: A.split(x, 2, axis=1), ValueError, "evenly divide"),
        (lambda x: A.split(x, [1, 1], axis=1), ValueError, "split_dim"),
        (lambda x: A.split(x, [-1, -1], axis=1), ValueError, "at most one"),
        (lambda x: A.split(x, 0), ValueError, "positive"),
        (lambda x: A.squeeze(x, [0]), ValueError, "Can not squeeze dim"),
        (lambda x: A.squeeze(x, [5]), ValueError, "squeeze dim index 5"),
        (lambda x: A.expand_dims(x, 5), ValueError, "ExpandDims"),
        (lambda x: A.expand_dims(x), ValueError, "Must specify an axis"),
        (lambda x: A.tile(x, [2]), ValueError, "multiples"),
        (lambda x: A.pad(x, [[1, 1]]), ValueError, "rank"),
        (lambda x: A.pad(x, [1, 1]), ValueError, r"\[rank, 2\]"),
        (lambda x: A.pad(x, [[-1, 0], [0, 0]]), ValueError, "non-negative"),
        (lambda x: A.pad(x, [[0, 0], [3, 0]], "REFLECT"), ValueError, "no greater than"),
        (lambda x: A.pad(x, [[0, 0], [1, 0]], "WRAP"), ValueError, "mode must be"),
        (lambda x: A.gather(x, [0.5]), TypeError, "indices must be int"),
        (lambda x: A.gather(x, [0], axis=1, batch_dims=2), ValueError, "batch_dims"),
        (lambda x: A.one_hot(tf.constant([0.0]), 3), TypeError, "indices must be int"),
        (lambda x: A.one_hot([0], 3, on_value=tf.constant(1), dtype=tf.float32), TypeError, "on_value"),
        (lambda x: A.one_hot([0], -1), ValueError, "non-negative"),
        (lambda x: A.range(0, 5, 0), ValueError, "delta != 0"),
        (lambda x: A.zeros([2, -3]), ValueError, "non-negative"),
        (lambda x: A.fill([2], [1.0, 2.0]), ValueError, "scalar"),
        (lambda x: A.slice(x, [0, 2], [2, 2]), ValueError, "Slice"),
        (lambda x: A.slice(x, [0], [1]), ValueError, "1-D tensors of size 2"),
        (lambda x: A.reshape(x, [2.5, 2]), TypeError, "integers"),
        (lambda x: A.reverse(x, [0.5]), TypeError, "integers"),
        (lambda x: A.broadcast_to(x, [3, 3]), ValueError, "BroadcastTo"),
    ],
)
def test_build_errors(build: Callable[[Any], Any], exc: type[Exception], match: str) -> None:
    x = tf.constant(X23)
    with pytest.raises(exc, match=match):
        build(x)


def test_eager_errors_are_raised() -> None:
    with tf.EagerSession():
        x = tf.constant(X23)
        with pytest.raises((ValueError, TypeError)):
            A.reshape(x, [4])
        with pytest.raises(ValueError, match="evenly divide"):
            A.split(x, 2, axis=1)


def test_out_of_range_gather_gives_zeros() -> None:
    y = A.gather(tf.constant([1.0, 2.0]), [1, 5])
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(y), [2.0, 0.0])


# -- constant folding through array ops ---------------------------------------------------


def test_array_ops_fold_as_constants() -> None:
    c = tf.constant([[1, 2], [3, 4]])
    np.testing.assert_array_equal(constant_value(A.transpose(c)), [[1, 3], [2, 4]])
    np.testing.assert_array_equal(constant_value(A.concat([c, c], 1)), np.concatenate([[[1, 2], [3, 4]]] * 2, 1))
    folded = A.reshape(tf.constant(np.zeros(8, np.float32)), A.concat([A.shape(c), [-1]], 0) + 0)
    assert folded.op.type == "Reshape"
    assert folded.shape.as_list() == [2, 2, 2]


def test_graph_tensor_in_eager_session_is_rejected() -> None:
    g_t = tf.constant([1.0])
    with tf.EagerSession():
        with pytest.raises(TypeError, match="Graph tensor"):
            A.reshape(g_t, [1])


def test_ensure_shape_failing_run_leaves_variables_unchanged() -> None:
    x = tf.placeholder(tf.float32, [None, 2])
    v = tf.Variable(np.zeros(2, np.float32))
    step = tf.assign_add(v, tf.reduce_sum(tf.ensure_shape(x, [3, 2]), axis=0))
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(step, {x: np.ones([3, 2], np.float32)})
        with pytest.raises(errors.InvalidArgumentError, match=r"not compatible with expected shape"):
            sess.run(step, {x: np.ones([4, 2], np.float32)})
        np.testing.assert_array_equal(sess.run(v), [3.0, 3.0])



def test_ensure_shape_static_mismatch_names_the_tensor() -> None:
    x = tf.placeholder(tf.float32, [None, 2], name="inp")
    with pytest.raises(ValueError, match=r"inp:0"):
        tf.ensure_shape(x, [1, 3])
    assert tf.ensure_shape(x, [5, None]).shape.as_list() == [5, 2]



@pytest.mark.parametrize(("repeats", "axis", "match"), [
    ([1, 2, 3], 0, r"3 repeats for dimension 0 of size 2"),
    ([-1, 2], 0, r"non-negative"),
    (2, 5, r"axis 5 is out of range"),
])
def test_repeat_bad_arguments(repeats: object, axis: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        tf.repeat(tf.constant([[1, 2], [3, 4]]), repeats, axis=axis)



def test_repeat_needs_static_repeats_and_has_gradients() -> None:
    n = tf.placeholder(tf.int32, [])
    with pytest.raises(ValueError, match=r"repeats.*known when the graph is built"):
        tf.repeat(tf.constant([1, 2]), n)
    x = tf.constant([1.0, 2.0])
    g = tf.gradients(tf.reduce_sum(tf.repeat(x, [3, 1]) * tf.constant([1.0, 2.0, 3.0, 4.0])), x)[0]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g), [6.0, 4.0])



def test_shape_n_of_mixed_dtypes_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"types \[int32, float32\] that don't all match"):
        tf.shape_n([tf.constant([1]), tf.constant([1.0])])
