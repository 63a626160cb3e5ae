"""Tests of the linear-algebra, array, segment and image ops added for TF1 tutorials.

Values against TensorFlow live in the corpus (``v20_*``); here: the errors
for data-dependent shapes, gradients, eager execution and GraphDef form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors
from jaxsess._core.graph._graph_def import PRIVATE_ATTRS, import_graph_def
from jaxsess._tf1.ops.segment_ops import DataDependentShapeError

X = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.0


# -- data-dependent output shapes -------------------------------------------------------------------


def _fed(dtype: Any = tf.bool, shape: Any = (3,), name: str = "fed") -> Any:
    return tf.placeholder(dtype, list(shape), name=name)


DATA_DEPENDENT: list[tuple[str, Callable[[], Any], str]] = [
    # boolean_mask, unique, dynamic_partition and bincount of run-time values use host ops
    # (tests/test_basics.py)
    ("segment_sum", lambda: tf.segment_sum(tf.constant(X), _fed(tf.int32, name="ids")),
     r"SegmentSum: .*'ids:0'.*unsorted_segment_sum"),
    ("segment_mean", lambda: tf.math.segment_mean(tf.constant(X), _fed(tf.int64, name="ids")),
     r"SegmentMean: .*'ids:0'.*unsorted_segment_mean"),
]


@pytest.mark.parametrize("case", DATA_DEPENDENT, ids=[c[0] for c in DATA_DEPENDENT])
def test_data_dependent_shapes_raise_at_construction(case: tuple[str, Callable[[], Any], str]) -> None:
    _, build, pattern = case
    with tf.Graph().as_default() as g:
        with pytest.raises(DataDependentShapeError, match=pattern) as info:
            build()
        assert not [op for op in g.get_operations() if op.type not in ("Placeholder", "Const")]
    assert isinstance(info.value, NotImplementedError)
    assert isinstance(info.value, errors.UnimplementedError)


def test_build_time_known_inputs_make_them_work() -> None:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3, 4], name="x")
        c = tf.constant(X)
        masked = tf.boolean_mask(x, tf.reduce_sum(c, axis=1) > 0)  # the mask folds from constants
        counts = tf.bincount(tf.placeholder(tf.int32, [None]), minlength=4, maxlength=4)
        sums = tf.segment_sum(x, tf.constant([0, 0, 1]) * 2)
        assert masked.shape.as_list() == [2, 4]
        assert sums.shape.as_list() == [3, 4]
        with tf.Session() as s:
            m, n, v = s.run([masked, counts, sums], {x: X, "Placeholder:0": [3, 3, 0, 7]})
    np.testing.assert_array_equal(m, X[1:])
    np.testing.assert_array_equal(n, [1, 0, 0, 2])  # 7 >= maxlength is dropped
    np.testing.assert_array_equal(v, np.stack([X[0] + X[1], np.zeros(4), X[2]]))


def test_sequence_mask_without_maxlen_needs_known_lengths() -> None:
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"sequence_mask: without 'maxlen'.*'lens:0'.*pass maxlen"):
            tf.sequence_mask(tf.placeholder(tf.int32, [None], name="lens"))


def test_unsorted_segment_ids_to_sorted_op_raise_invalid_argument() -> None:
    with tf.Graph().as_default():
        with pytest.raises(errors.InvalidArgumentError, match="sorted and non-negative"):
            tf.segment_sum(tf.constant(X), [1, 0, 0])


@pytest.mark.parametrize("build, pattern", [
    (lambda: tf.strided_slice(tf.constant(X), tf.placeholder(tf.int32, [2], name="b"), [2, 2]),
     r"strided_slice: argument 'begin' must be known.*got b:0"),
    (lambda: tf.scatter_nd([[1], [3]], [9.0, 10.0, 11.0], [5]),
     r"scatter_nd: the shape of 'updates' \[3\] must be .* = \[2\]"),
    (lambda: tf.image.resize_images(tf.zeros([4, 5]), [2, 2]), r"resize_images: 'image'.* rank 3 or 4, got shape \[4, 5\]"),
    (lambda: tf.matrix_inverse(tf.zeros([2, 3])), r"MatrixInverse: .*square matrices, got shape \[2, 3\]"),
    (lambda: tf.norm(tf.zeros([2, 2]), ord=2, axis=[0, 1]), r"spectral matrix norm"),
])
def test_bad_arguments_name_the_op_and_the_values(build: Callable[[], Any], pattern: str) -> None:
    with tf.Graph().as_default():
        with pytest.raises((ValueError, NotImplementedError), match=pattern):
            build()


# -- gradients --------------------------------------------------------------------------------------


def test_gradients_of_norm_resize_and_segments() -> None:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3, 4])
        img = tf.placeholder(tf.float32, [1, 3, 4, 1])
        g_norm = tf.gradients(tf.norm(x), x)[0]
        g_resize = tf.gradients(tf.reduce_sum(tf.image.resize_images(img, [5, 7])), img)[0]
        g_seg = tf.gradients(tf.reduce_sum(tf.unsorted_segment_mean(x, [0, 0, 1], 2)), x)[0]
        g_inv = tf.gradients(tf.reduce_sum(tf.matrix_inverse(x[:, :3] + 4.0 * tf.eye(3))), x)[0]
        with tf.Session() as s:
            gn, gr, gs, gi = s.run([g_norm, g_resize, g_seg, g_inv], {x: X, img: X.reshape(1, 3, 4, 1)})
    np.testing.assert_allclose(gn, X / np.linalg.norm(X), rtol=1e-6)
    # each output pixel's bilinear weights sum to 1: the gradient of the sum spreads 5 * 7 in all
    np.testing.assert_allclose(gr.sum(), 35.0, rtol=1e-6)
    np.testing.assert_allclose(gs, np.array([[0.5] * 4, [0.5] * 4, [1.0] * 4]))
    a = X[:, :3] + 4.0 * np.eye(3)
    inv = np.linalg.inv(a)
    want = -(inv.T @ np.ones((3, 3)) @ inv.T)  # d sum(A^-1) / dA
    np.testing.assert_allclose(gi[:, :3], want, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(gi[:, 3], 0.0)


# -- eager --------------------------------------------------------------------------------------------


def test_the_ops_execute_eagerly() -> None:
    m = np.array([[4.0, 1.0], [1.0, 3.0]], np.float32)
    with tf.EagerSession():
        outs = [
            tf.norm(tf.constant(X), axis=1), tf.linalg.det(tf.constant(m)), tf.roll(tf.constant(X), 1, 0),
            tf.unsorted_segment_sum(tf.constant(X), tf.constant([0, 1, 0]), 2),
            tf.image.resize_images(tf.constant(X.reshape(3, 4, 1)), [6, 8]), tf.lgamma(tf.constant(m)),
            tf.matrix_band_part(tf.constant(m), 0, 0),
        ]
        for o in outs:
            assert isinstance(o, jax.Array)
        np.testing.assert_allclose(outs[0], np.linalg.norm(X, axis=1), rtol=1e-6)
        np.testing.assert_allclose(outs[1], 11.0, rtol=1e-6)
        np.testing.assert_array_equal(outs[2], np.roll(X, 1, 0))
        np.testing.assert_array_equal(outs[3], [X[0] + X[2], X[1]])
        assert outs[4].shape == (6, 8, 1)
        np.testing.assert_array_equal(outs[6], np.diag(np.diag(m)))


# -- GraphDef -----------------------------------------------------------------------------------------


def test_graph_def_writes_tf_op_types_and_roundtrips() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 4, 5, 3], name="x")
        m = tf.constant([[4.0, 1.0], [1.0, 3.0]])
        outs = [
            tf.image.resize_images(x, [7, 3]), tf.image.resize_nearest_neighbor(x, [3, 8], half_pixel_centers=True),
            tf.image.resize_bicubic(x, [5, 6]), tf.image.resize_area(x, [2, 2]), tf.matrix_band_part(m, 0, -1),
            tf.matrix_inverse(m), tf.matrix_determinant(m), tf.cholesky(m), tf.diag([1.0, 2.0]), tf.diag_part(m),
            tf.linspace(0.0, 1.0, 4), tf.lgamma(m), tf.roll(x, [1, 2], [1, 2]),
            tf.scatter_nd([[1], [0]], [[1.0, 2.0], [3.0, 4.0]], [3, 2]), tf.unsorted_segment_max(m, [0, 2], 3),
            tf.segment_sum(m, [0, 0]), tf.strided_slice(x, [0, 1], [2, 3], [1, 1], shrink_axis_mask=1),
            tf.reverse_sequence(x, [2, 3], seq_axis=1, batch_axis=0), tf.qr(m)[1],
        ]
    gd = tf.GraphDef.FromString(g.as_graph_def().SerializeToString())
    types = {n.op for n in gd.node}
    assert {"ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea", "MatrixBandPart",
            "MatrixInverse", "MatrixDeterminant", "Cholesky", "Diag", "DiagPart", "LinSpace", "Lgamma", "Roll",
            "ScatterNd", "UnsortedSegmentMax", "SegmentSum", "StridedSlice", "ReverseSequence", "Qr"} <= types
    assert [n.name for n in gd.node if PRIVATE_ATTRS in n.attr] == []
    g2 = tf.Graph()
    with g2.as_default():
        import_graph_def(gd, name="")
    xv = np.linspace(0.0, 1.0, 120, dtype=np.float32).reshape(2, 4, 5, 3)
    results = []
    for graph in (g, g2):
        with tf.Session(graph=graph) as s:
            results.append(s.run([t.name for t in outs], {"x:0": xv}))
    for a, b in zip(*results, strict=True):
        np.testing.assert_array_equal(a, b)


def test_namespaces_alias_tf_names() -> None:
    assert tf.linalg.inv is tf.matrix_inverse and tf.linalg.det is tf.matrix_determinant
    assert tf.linalg.diag is tf.matrix_diag and tf.linalg.band_part is tf.matrix_band_part
    assert tf.image.resize is tf.image.resize_images and tf.lin_space is tf.linspace
    assert tf.math.unsorted_segment_sum is tf.unsorted_segment_sum and tf.math.erfc is tf.erfc
    assert tf.compat.v1.image.ResizeMethod.AREA == 3


def test_saturate_cast_edges() -> None:
    with tf.Session() as sess:
        got = sess.run([tf.saturate_cast(tf.constant([3e9, -3e9, 7.9]), tf.int32),
                        tf.saturate_cast(tf.constant([70000, -5]), tf.uint16),
                        tf.saturate_cast(tf.constant([1e300, -1e300], tf.float64), tf.float32),
                        tf.saturate_cast(tf.constant([1 + 2j], tf.complex64), tf.float32)])
    np.testing.assert_array_equal(got[0], [2147483520, -2147483648, 7])  # float32 below 2**31, as TF
    np.testing.assert_array_equal(got[1], [65535, 0])
    assert np.all(np.isfinite(got[2])) and got[2][0] == np.finfo(np.float32).max
    np.testing.assert_array_equal(got[3], [1.0])



def test_bitcast_narrow_input_must_end_in_the_ratio() -> None:
    with pytest.raises(ValueError, match=r"last dimension of .* must be 4"):
        tf.bitcast(tf.constant([1, 2], tf.uint8), tf.int32)
    assert tf.bitcast(tf.constant(np.zeros((3, 2), np.int16)), tf.int32).shape.as_list() == [3]



def test_type_errors_name_the_op() -> None:
    with pytest.raises(TypeError, match=r"'NextAfter'"):
        tf.math.nextafter(tf.constant([1]), tf.constant([2]))
    with pytest.raises(TypeError, match=r"bessel_i0: expected"):
        tf.math.bessel_i0(tf.constant([1]))
    with pytest.raises(TypeError, match=r"unsorted_segment_sqrt_n: expected float data"):
        tf.math.unsorted_segment_sqrt_n(tf.constant([1, 2]), tf.constant([0, 0]), 1)



def test_lu_and_tridiagonal_errors() -> None:
    with pytest.raises(TypeError, match=r"lu: expected a float"):
        tf.linalg.lu(tf.constant([[1, 2], [3, 4]]))
    lu, p = tf.linalg.lu(tf.constant([[2.0, 1.0], [1.0, 3.0]]))
    with pytest.raises(ValueError, match=r"rhs .* must be \[\.\.\., 2, K\]"):
        tf.linalg.lu_solve(lu, p, tf.ones([3, 1]))
    with pytest.raises(TypeError, match=r"perm must be int32 or int64"):
        tf.linalg.lu_reconstruct(lu, tf.cast(p, tf.float32))
    with pytest.raises(ValueError, match=r"unrecognized diagonals_format 'banded'"):
        tf.linalg.tridiagonal_solve(tf.ones([3, 2]), tf.ones([2, 1]), diagonals_format="banded")
