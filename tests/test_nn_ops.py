"""Tests of ``jaxsess.nn`` (``jaxsess._tf1.ops.nn_ops``), ``jaxsess.losses`` and the
``jaxsess.math`` namespace: values against NumPy formulas and loops, static
shapes, names, gradients into labels, eager execution, and errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import losses, math as tfmath, nn
from jaxsess._core.graph._plan import build_plan
from jaxsess._tf1.ops import array_ops as A, math_ops, nn_ops


@pytest.fixture(autouse=True)
def fresh_graph() -> None:
    tf.reset_default_graph()


RNG = np.random.default_rng(0)
X = RNG.normal(size=(4, 5)).astype(np.float32) * 3


def np_softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def run_graph(build: Callable[..., Any], *inputs: np.ndarray) -> tuple[Any, Any]:
    """Builds ``build`` on placeholders of the inputs' shapes and runs it; returns (tensor(s), values)."""
    phs = [tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in inputs]
    out = build(*phs)
    with tf.Session() as s:
        vals = s.run(out, dict(zip(phs, inputs, strict=True)))
        vals = jax.tree_util.tree_map(np.asarray, vals)
    return out, vals


def feed_grad(y: Any, wrt: Any, feeds: dict[Any, np.ndarray]) -> np.ndarray:
    """d sum(y) / d wrt, through the lowered graph (``wrt`` is a fed tensor)."""
    plan = build_plan([y], list(feeds), [])
    vals = [jnp.asarray(v) for v in feeds.values()]
    i = list(feeds).index(wrt)

    def f(v: Any) -> Any:
        vs = list(vals)
        vs[i] = v
        (out,), _ = plan.pure_fn((), (), tuple(vs))
        return jnp.sum(out)

    return np.asarray(jax.grad(f)(vals[i]))


# -- activations -------------------------------------------------------------------------

ACTIVATIONS: list[tuple[str, Callable[[Any], Any], Callable[[np.ndarray], np.ndarray], str]] = [
    ("relu", nn.relu, lambda x: np.maximum(x, 0), "Relu"),
    ("relu6", nn.relu6, lambda x: np.clip(x, 0, 6), "Relu6"),
    ("elu", nn.elu, lambda x: np.where(x > 0, x, np.expm1(x)), "Elu"),
    ("selu", nn.selu,
     lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x)), "Selu"),
    ("leaky_relu", nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x), "LeakyRelu"),
    ("leaky_relu_alpha", lambda x: nn.leaky_relu(x, alpha=0.01), lambda x: np.where(x > 0, x, 0.01 * x),
     "LeakyRelu"),
    ("softplus", nn.softplus, lambda x: np.log1p(np.exp(x)), "Softplus"),
    ("softsign", nn.softsign, lambda x: x / (1 + np.abs(x)), "Softsign"),
    ("sigmoid", nn.sigmoid, np_sigmoid, "Sigmoid"),
    ("tanh", nn.tanh, np.tanh, "Tanh"),
    ("softmax", nn.softmax, np_softmax, "Softmax"),
    ("softmax_axis0", lambda x: nn.softmax(x, axis=0), lambda x: np_softmax(x, 0), "Softmax"),
    ("softmax_dim", lambda x: nn.softmax(x, dim=0), lambda x: np_softmax(x, 0), "Softmax"),
    ("log_softmax", nn.log_softmax, lambda x: np.log(np_softmax(x)), "LogSoftmax"),
    ("l2_loss", nn.l2_loss, lambda x: np.float32(np.sum(x**2) / 2), "L2Loss"),
]


@pytest.mark.parametrize("case", ACTIVATIONS, ids=[c[0] for c in ACTIVATIONS])
def test_activation_graph_eager_and_shapes(case: Any) -> None:
    _, fn, ref, op_type = case
    out, val = run_graph(fn, X)
    want = ref(X).astype(np.float32)
    assert out.op.type == op_type
    assert out.dtype == tf.float32
    assert out.shape.as_list() == list(want.shape)
    np.testing.assert_allclose(val, want, rtol=1e-5, atol=1e-6)
    partial = fn(tf.placeholder(tf.float32, [None, 5]))
    assert partial.shape.as_list() == ([] if want.ndim == 0 else [None, 5])
    with tf.EagerSession():
        got = fn(tf.constant(X))
        assert isinstance(got, jax.Array)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_activation_names() -> None:
    x = tf.constant(X)
    assert nn.relu(x).name == "Relu:0"
    assert nn.relu(x).name == "Relu_1:0"
    assert nn.relu(x, name="act").name == "act:0"
    assert nn.softmax(x).name == "Softmax:0"


@pytest.mark.parametrize("fn", [nn.softmax, nn.elu, nn.softplus, nn.l2_loss, nn.log_softmax])
def test_float_only_activations_reject_ints(fn: Callable[[Any], Any]) -> None:
    with pytest.raises(TypeError, match="floating-point"):
        fn(tf.constant([1, 2]))


# -- cross-entropies ---------------------------------------------------------------------------

LABELS = np_softmax(RNG.normal(size=(4, 5)).astype(np.float32))
SPARSE = np.array([0, 4, 2, 1], np.int32)


def np_xent(labels: np.ndarray, logits: np.ndarray, axis: int = -1) -> np.ndarray:
    return -(labels * np.log(np_softmax(logits, axis))).sum(axis)


@pytest.mark.parametrize(
    "fn",
    [nn.softmax_cross_entropy_with_logits, nn.softmax_cross_entropy_with_logits_v2],
    ids=["v1", "v2"],
)
def test_softmax_cross_entropy_values_and_shape(fn: Callable[..., Any]) -> None:
    out, val = run_graph(lambda y, x: fn(labels=y, logits=x), LABELS, X)
    assert out.shape.as_list() == [4]
    np.testing.assert_allclose(val, np_xent(LABELS, X), rtol=1e-5)
    out0, val0 = run_graph(lambda y, x: fn(labels=y, logits=x, axis=0), LABELS, X)
    assert out0.shape.as_list() == [5]
    np.testing.assert_allclose(val0, np_xent(LABELS, X, 0), rtol=1e-5)
    with tf.EagerSession():
        got = fn(labels=tf.constant(LABELS), logits=tf.constant(X))
        assert isinstance(got, jax.Array)
        np.testing.assert_allclose(np.asarray(got), np_xent(LABELS, X), rtol=1e-5)


def test_softmax_cross_entropy_v1_stops_gradient_into_labels_v2_does_not() -> None:
    y = tf.placeholder(tf.float32, [4, 5])
    x = tf.placeholder(tf.float32, [4, 5])
    v1 = nn.softmax_cross_entropy_with_logits(labels=y, logits=x)
    v2 = nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x)
    feeds = {y: LABELS, x: X}
    np.testing.assert_array_equal(feed_grad(v1, y, feeds), np.zeros_like(LABELS))
    np.testing.assert_allclose(feed_grad(v2, y, feeds), -np.log(np_softmax(X)), rtol=1e-5)
    grad_logits = np_softmax(X) - LABELS  # d xent / d logits (rows of labels sum to 1)
    np.testing.assert_allclose(feed_grad(v1, x, feeds), grad_logits, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(feed_grad(v2, x, feeds), grad_logits, rtol=1e-4, atol=1e-6)


def test_sparse_softmax_cross_entropy() -> None:
    out, val = run_graph(lambda y, x: nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x), SPARSE, X)
    assert out.shape.as_list() == [4] and out.dtype == tf.float32
    want = -np.log(np_softmax(X))[np.arange(4), SPARSE]
    np.testing.assert_allclose(val, want, rtol=1e-5)
    part = nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.placeholder(tf.int32, [None]), logits=tf.placeholder(tf.float32, [None, 5])
    )
    assert part.shape.as_list() == [None]
    with tf.EagerSession():
        got = nn.sparse_softmax_cross_entropy_with_logits(labels=SPARSE, logits=X)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


def test_sparse_softmax_cross_entropy_out_of_range_label_is_nan() -> None:
    _, val = run_graph(lambda y, x: nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x),
                       np.array([0, 7, 1, 1], np.int32), X)
    assert np.isnan(val[1]) and np.isfinite(val[[0, 2, 3]]).all()


def test_sigmoid_cross_entropy() -> None:
    z = (RNG.random(size=(4, 5)) > 0.5).astype(np.float32)
    out, val = run_graph(lambda y, x: nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x), z, X)
    assert out.shape.as_list() == [4, 5]
    assert out.name == "logistic_loss:0"
    p = np_sigmoid(X.astype(np.float64))
    want = -z * np.log(p) - (1 - z) * np.log(1 - p)
    np.testing.assert_allclose(val, want, rtol=1e-4, atol=1e-6)
    big = np.array([[100.0, -100.0]], np.float32)
    _, v2 = run_graph(lambda y, x: nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x),
                      np.array([[0.0, 1.0]], np.float32), big)
    np.testing.assert_allclose(v2, [[100.0, 100.0]])  # stable: no inf


@pytest.mark.parametrize(
    "build, exc, match",
    [
        (lambda: nn.softmax_cross_entropy_with_logits(LABELS, X), ValueError, "named arguments"),
        (lambda: nn.sparse_softmax_cross_entropy_with_logits(SPARSE, X), ValueError, "named arguments"),
        (lambda: nn.softmax_cross_entropy_with_logits_v2(labels=LABELS[:, :3], logits=X), ValueError,
         "node 'softmax_cross_entropy_with_logits'"),
        (lambda: nn.sparse_softmax_cross_entropy_with_logits(labels=LABELS, logits=X), TypeError, "int32"),
        (lambda: nn.sparse_softmax_cross_entropy_with_logits(labels=SPARSE[:, None], logits=X), ValueError,
         "Rank mismatch"),
        (lambda: nn.sparse_softmax_cross_entropy_with_logits(labels=SPARSE[:3], logits=X), ValueError,
         "labels shape"),
        (lambda: nn.sigmoid_cross_entropy_with_logits(labels=X[:, :2], logits=X), ValueError, "same shape"),
        (lambda: nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1]), logits=tf.constant([1.0])),
         TypeError, "dtype"),
    ],
)
def test_cross_entropy_errors(build: Callable[[], Any], exc: type[Exception], match: str) -> None:
    with pytest.raises(exc, match=match):
        build()


# -- bias_add, conv2d, pooling -----------------------------------------------------------------


def test_bias_add_nhwc_and_nchw() -> None:
    x = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    b4 = np.arange(4, dtype=np.float32)
    b3 = np.arange(3, dtype=np.float32)
    out, val = run_graph(nn.bias_add, x, b4)
    assert out.op.type == "BiasAdd" and out.shape.as_list() == [2, 3, 4]
    np.testing.assert_allclose(val, x + b4)
    _, val = run_graph(lambda a, b: nn.bias_add(a, b, data_format="NCHW"), x, b3)
    np.testing.assert_allclose(val, x + b3[None, :, None])
    with pytest.raises(ValueError, match="as many biases"):
        nn.bias_add(tf.constant(x), tf.constant(b3))
    with pytest.raises(ValueError, match="1-D"):
        nn.bias_add(tf.constant(x), tf.constant(x[0]))
    with pytest.raises(TypeError, match="dtype"):
        nn.bias_add(tf.constant(x), tf.constant([1, 2, 3, 4]))


def test_xw_plus_b() -> None:
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    w = RNG.normal(size=(4, 2)).astype(np.float32)
    b = np.array([1.0, -1.0], np.float32)
    out, val = run_graph(nn.xw_plus_b, x, w, b)
    assert out.name == "xw_plus_b:0"
    np.testing.assert_allclose(val, x @ w + b, rtol=1e-5)


def np_conv2d(x: np.ndarray, w: np.ndarray, strides: tuple[int, int], padding: str,
              dilations: tuple[int, int]) -> np.ndarray:
    """NHWC x HWIO cross-correlation with TF's SAME/VALID rules, by loops."""
    n, h, wd, _ = x.shape
    kh, kw, _, o = w.shape
    ekh, ekw = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    if padding == "SAME":
        oh, ow = -(-h // strides[0]), -(-wd // strides[1])
        ph = max((oh - 1) * strides[0] + ekh - h, 0)
        pw = max((ow - 1) * strides[1] + ekw - wd, 0)
    else:
        oh, ow = (h - ekh) // strides[0] + 1, (wd - ekw) // strides[1] + 1
        ph = pw = 0
    xp = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    out = np.zeros((n, oh, ow, o), np.float64)
    for i in range(oh):
        for j in range(ow):
            r, c = i * strides[0], j * strides[1]
            patch = xp[:, r:r + ekh:dilations[0], c:c + ekw:dilations[1], :]
            out[:, i, j, :] = np.einsum("nhwc,hwco->no", patch, w)
    return out.astype(np.float32)


CONV_IN = RNG.normal(size=(2, 7, 6, 3)).astype(np.float32)
CONV_W = RNG.normal(size=(3, 2, 3, 4)).astype(np.float32)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("dilation", [1, 2])
def test_conv2d_matches_loop(padding: str, stride: int, dilation: int) -> None:
    want = np_conv2d(CONV_IN, CONV_W, (stride, stride), padding, (dilation, dilation))
    out, val = run_graph(
        lambda x, w: nn.conv2d(x, w, strides=[1, stride, stride, 1], padding=padding,
                               dilations=[1, dilation, dilation, 1]),
        CONV_IN, CONV_W,
    )
    assert out.shape.as_list() == list(want.shape)
    assert out.op.type == "Conv2D"
    np.testing.assert_allclose(val, want, rtol=1e-4, atol=1e-4)
    ref = jax.lax.conv_general_dilated(CONV_IN, CONV_W, (stride, stride), padding,
                                       rhs_dilation=(dilation, dilation),
                                       dimension_numbers=("NHWC", "HWIO", "NHWC"))
    np.testing.assert_allclose(val, np.asarray(ref), rtol=1e-5, atol=1e-5)


def test_conv2d_variants() -> None:
    want = np_conv2d(CONV_IN, CONV_W, (2, 1), "SAME", (1, 1))
    x = tf.placeholder(tf.float32, [None, 7, 6, 3])
    w = tf.constant(CONV_W)
    y_int = nn.conv2d(x, w, strides=[2, 1], padding="same")
    y_nchw = A.transpose(
        nn.conv2d(A.transpose(x, [0, 3, 1, 2]), filters=w, strides=[1, 1, 2, 1], padding="SAME",
                  data_format="NCHW"),
        [0, 2, 3, 1],
    )
    explicit = nn.conv2d(x, w, 1, [[0, 0], [1, 1], [0, 1], [0, 0]])
    assert y_int.shape.as_list() == [None, 4, 6, 4]
    assert explicit.shape.as_list() == [None, 7, 6, 4]
    with tf.Session() as s:
        a, b, e = s.run([y_int, y_nchw, explicit], {x: CONV_IN})
        np.testing.assert_allclose(a, want, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(b, want, rtol=1e-4, atol=1e-4)
        padded = np.pad(CONV_IN, ((0, 0), (1, 1), (0, 1), (0, 0)))
        np.testing.assert_allclose(e, np_conv2d(padded, CONV_W, (1, 1), "VALID", (1, 1)), rtol=1e-4, atol=1e-4)
    with tf.EagerSession():
        got = nn.conv2d(CONV_IN, CONV_W, [1, 2, 1, 1], "SAME")
        assert isinstance(got, jax.Array)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"strides": 1, "padding": "FULL"}, ValueError, "padding must be"),
        ({"strides": [2, 1, 1, 1], "padding": "SAME"}, ValueError, "batch and depth"),
        ({"strides": [1, 2, 3], "padding": "SAME"}, ValueError, "1, 2 or 4"),
        ({"padding": "SAME"}, ValueError, "'strides' is required"),
        ({"strides": 1, "padding": "SAME", "data_format": "NWHC"}, ValueError, "data_format"),
    ],
)
def test_conv2d_argument_errors(kwargs: dict[str, Any], exc: type[Exception], match: str) -> None:
    with pytest.raises(exc, match=match):
        nn.conv2d(tf.constant(CONV_IN), tf.constant(CONV_W), **kwargs)


def test_conv2d_channel_mismatch_names_node() -> None:
    with pytest.raises(ValueError, match="node 'Conv2D'"):
        nn.conv2d(tf.constant(CONV_IN[..., :2]), tf.constant(CONV_W), 1, "SAME")
    with pytest.raises(TypeError, match="dtype"):
        nn.conv2d(tf.constant(CONV_IN), tf.constant(CONV_W.astype(np.int32)), 1, "SAME")


def np_pool(x: np.ndarray, k: int, s: int, padding: str, kind: str) -> np.ndarray:
    """NHWC pooling over valid elements only (padding excluded), by loops."""
    n, h, w, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // s), -(-w // s)
        ph, pw = max((oh - 1) * s + k - h, 0), max((ow - 1) * s + k - w, 0)
    else:
        oh, ow = (h - k) // s + 1, (w - k) // s + 1
        ph = pw = 0
    xp = np.pad(x.astype(np.float64), ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)),
                constant_values=np.nan)
    out = np.zeros((n, oh, ow, c))
    red = np.nanmax if kind == "max" else np.nanmean
    for i in range(oh):
        for j in range(ow):
            out[:, i, j, :] = red(xp[:, i * s:i * s + k, j * s:j * s + k, :], axis=(1, 2))
    return out.astype(np.float32)


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("k, s", [(2, 2), (3, 2), (3, 1)])
def test_pooling_matches_loop(kind: str, padding: str, k: int, s: int) -> None:
    pool = nn.max_pool if kind == "max" else nn.avg_pool
    want = np_pool(CONV_IN, k, s, padding, kind)
    out, val = run_graph(lambda x: pool(x, ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=padding), CONV_IN)
    assert out.shape.as_list() == list(want.shape)
    assert out.op.type == ("MaxPool" if kind == "max" else "AvgPool")
    np.testing.assert_allclose(val, want, rtol=1e-5, atol=1e-6)
    partial = pool(tf.placeholder(tf.float32, [None, 7, 6, 3]), k, s, padding)
    assert partial.shape.as_list() == [None, *want.shape[1:]]
    with tf.EagerSession():
        got = pool(CONV_IN, k, s, padding)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_pool_nchw_aliases_and_errors() -> None:
    x = np.transpose(CONV_IN, (0, 3, 1, 2))
    _, val = run_graph(lambda t: nn.max_pool2d(t, [1, 1, 2, 2], [1, 1, 2, 2], "VALID", data_format="NCHW"), x)
    np.testing.assert_allclose(np.transpose(val, (0, 2, 3, 1)), np_pool(CONV_IN, 2, 2, "VALID", "max"))
    assert nn.avg_pool2d is nn.avg_pool
    with pytest.raises(ValueError, match="'SAME' or 'VALID'"):
        nn.max_pool(tf.constant(CONV_IN), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]])
    with pytest.raises(TypeError, match="floating-point"):
        nn.avg_pool(tf.constant(CONV_IN.astype(np.int32)), 2, 2, "SAME")


def test_max_pool_on_ints() -> None:
    x = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1) - 20
    _, val = run_graph(lambda t: nn.max_pool(t, 2, 2, "SAME"), x)
    np.testing.assert_array_equal(val[0, :, :, 0], [[-15, -13], [-7, -5]])


# -- moments, normalisation, top-k, embedding ------------------------------------------------


@pytest.mark.parametrize("axes, keep", [([0], False), ([0, 1], False), ([1], True)])
def test_moments(axes: list[int], keep: bool) -> None:
    (m, v), (mv, vv) = run_graph(lambda x: nn.moments(x, axes, keep_dims=keep), X)
    np.testing.assert_allclose(mv, X.mean(axis=tuple(axes), keepdims=keep), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(vv, X.var(axis=tuple(axes), keepdims=keep), rtol=1e-4)
    assert m.shape.as_list() == list(mv.shape)
    assert m.name.startswith("moments/")
    with tf.EagerSession():
        em, ev = nn.moments(tf.constant(X), axes, keepdims=keep)
        np.testing.assert_allclose(np.asarray(ev), vv, rtol=1e-5)


@pytest.mark.parametrize("axis", [None, 0, 1, [0, 1]])
def test_l2_normalize(axis: Any) -> None:
    out, val = run_graph(lambda x: nn.l2_normalize(x, axis), X)
    ax = None if axis is None else tuple(np.atleast_1d(axis))
    want = X / np.sqrt(np.maximum((X**2).sum(axis=ax, keepdims=True), 1e-12))
    np.testing.assert_allclose(val, want, rtol=1e-5)
    assert out.name == "l2_normalize:0"
    assert tfmath.l2_normalize is nn.l2_normalize


def test_in_top_k_with_ties_and_non_finite() -> None:
    preds = np.array([[0.1, 0.3, 0.3, 0.2], [0.5, 0.1, 0.2, 0.2], [np.nan, 0.1, 0.2, 0.3]], np.float32)
    targets = np.array([2, 3, 0], np.int32)
    out, val = run_graph(lambda p, t: nn.in_top_k(p, t, 1), preds, targets)
    assert out.dtype == tf.bool and out.shape.as_list() == [3]
    np.testing.assert_array_equal(val, [True, False, False])
    _, val2 = run_graph(lambda p, t: nn.in_top_k(p, t, 2), preds, targets)
    np.testing.assert_array_equal(val2, [True, True, False])
    _, val3 = run_graph(lambda p, t: nn.in_top_k(p, t, 2), preds, np.array([9, -1, 3], np.int32))
    np.testing.assert_array_equal(val3, [False, False, True])


def test_top_k() -> None:
    x = np.array([[1.0, 5.0, 3.0, 5.0], [0.0, -1.0, 2.0, 1.0]], np.float32)
    out, (values, indices) = run_graph(lambda t: nn.top_k(t, 2), x)
    assert isinstance(out, nn_ops.TopKV2)
    assert out.values.shape.as_list() == [2, 2] and out.indices.dtype == tf.int32
    np.testing.assert_array_equal(values, [[5, 5], [2, 1]])
    np.testing.assert_array_equal(indices, [[1, 3], [2, 3]])
    with tf.EagerSession():
        v, i = nn.top_k(x, k=1)
        np.testing.assert_array_equal(np.asarray(i), [[1], [2]])
    with pytest.raises(ValueError, match="no larger than.*node 'TopKV2_1'"):
        nn.top_k(tf.constant(x), 5)


def test_embedding_lookup() -> None:
    params = RNG.normal(size=(6, 3)).astype(np.float32)
    ids = np.array([[0, 5], [2, 2]], np.int32)
    out, val = run_graph(nn.embedding_lookup, params, ids)
    assert out.shape.as_list() == [2, 2, 3] and out.name == "embedding_lookup/Identity:0"  # as TF 2.21
    np.testing.assert_allclose(val, params[ids])
    _, val2 = run_graph(lambda p, i: nn.embedding_lookup([p], i, max_norm=0.5), params, ids)
    rows = params[ids]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    np.testing.assert_allclose(val2, rows * np.minimum(0.5 / norms, 1.0), rtol=1e-5)
    _, val3 = run_graph(lambda p, i: nn.embedding_lookup([p, p], i), params, ids)  # 'mod': row i // 2
    np.testing.assert_allclose(val3, params[ids // 2])


# -- losses ---------------------------------------------------------------------------------------

Y = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
P = Y + np.array([[1.0, -1.0, 2.0], [0.0, 3.0, -2.0]], np.float32)


@pytest.mark.parametrize(
    "loss_fn, per_element",
    [
        (losses.mean_squared_error, lambda y, p: (p - y) ** 2),
        (losses.absolute_difference, lambda y, p: np.abs(p - y)),
        (losses.huber_loss, lambda y, p: np.where(np.abs(p - y) <= 1, 0.5 * (p - y) ** 2, np.abs(p - y) - 0.5)),
    ],
    ids=["mse", "absdiff", "huber"],
)
@pytest.mark.parametrize(
    "weights, reduction",
    [
        (1.0, losses.Reduction.SUM_BY_NONZERO_WEIGHTS),
        (2.0, losses.Reduction.SUM_BY_NONZERO_WEIGHTS),
        (np.array([[1.0], [0.0]], np.float32), losses.Reduction.SUM_BY_NONZERO_WEIGHTS),
        (np.array([[0.5, 0.0, 2.0]], np.float32), losses.Reduction.SUM_OVER_NONZERO_WEIGHTS),
        (np.array([[1.0], [3.0]], np.float32), losses.Reduction.MEAN),
        (2.0, losses.Reduction.SUM),
        (np.array([[1.0], [0.0]], np.float32), losses.Reduction.SUM_OVER_BATCH_SIZE),
        (np.array([[1.0], [0.5]], np.float32), losses.Reduction.NONE),
        (0.0, losses.Reduction.SUM_BY_NONZERO_WEIGHTS),
    ],
)
def test_elementwise_losses(loss_fn: Callable[..., Any], per_element: Any, weights: Any, reduction: str) -> None:
    w = np.broadcast_to(np.asarray(weights, np.float32), Y.shape)
    weighted = per_element(Y, P) * w
    if reduction == losses.Reduction.NONE:
        want = weighted
    elif reduction == losses.Reduction.SUM:
        want = weighted.sum()
    elif reduction == losses.Reduction.MEAN:
        want = weighted.sum() / w.sum()
    elif reduction == losses.Reduction.SUM_OVER_BATCH_SIZE:
        want = weighted.sum() / Y.size
    else:
        n = np.count_nonzero(w)
        want = weighted.sum() / n if n else 0.0
    out, val = run_graph(lambda y, p: loss_fn(y, p, weights=weights, reduction=reduction), Y, P)
    assert out.dtype == tf.float32
    assert out.shape.as_list() == list(np.shape(want))
    np.testing.assert_allclose(val, want, rtol=1e-5)
    assert tf.get_collection(tf.GraphKeys.LOSSES) == [out]
    with tf.EagerSession():
        got = loss_fn(Y, P, weights=weights, reduction=reduction)
        assert isinstance(got, jax.Array)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)


def test_loss_names_collections_and_default_reduction() -> None:
    y = tf.placeholder(tf.float32, [None, 3])
    p = tf.placeholder(tf.float32, [None, 3])
    mse = losses.mean_squared_error(y, p)
    assert mse.name == "mean_squared_error/value:0"
    assert mse.shape.as_list() == []
    extra = losses.absolute_difference(y, p, loss_collection=None)
    assert losses.get_losses() == [mse]
    assert extra not in tf.get_collection(tf.GraphKeys.LOSSES)
    total = losses.get_total_loss()
    with tf.Session() as s:
        got_mse, got_total = s.run([mse, total], {y: Y, p: P})
        np.testing.assert_allclose(got_mse, ((P - Y) ** 2).mean(), rtol=1e-6)
        np.testing.assert_allclose(got_total, got_mse, rtol=1e-6)
    with tf.EagerSession():
        losses.mean_squared_error(Y, P)
    assert losses.get_losses() == [mse]


def test_zero_weights_give_zero_not_nan_and_finite_gradient() -> None:
    y = tf.placeholder(tf.float32, [2, 3])
    p = tf.placeholder(tf.float32, [2, 3])
    loss = losses.mean_squared_error(y, p, weights=0.0)
    with tf.Session() as s:
        assert s.run(loss, {y: Y, p: P}) == 0.0
    g = feed_grad(loss, p, {y: Y, p: P})
    np.testing.assert_array_equal(g, np.zeros_like(P))


def test_softmax_cross_entropy_loss_with_smoothing_and_weights() -> None:
    onehot = np.eye(5, dtype=np.float32)[SPARSE]
    w = np.array([1.0, 0.0, 2.0, 1.0], np.float32)
    out, val = run_graph(lambda y, x: losses.softmax_cross_entropy(y, x, weights=w, label_smoothing=0.1), onehot, X)
    smooth = onehot * 0.9 + 0.1 / 5
    want = (np_xent(smooth, X) * w).sum() / 3
    assert out.name == "softmax_cross_entropy_loss/value:0"
    np.testing.assert_allclose(val, want, rtol=1e-5)
    y = tf.placeholder(tf.float32, [4, 5])
    x = tf.placeholder(tf.float32, [4, 5])
    np.testing.assert_array_equal(feed_grad(losses.softmax_cross_entropy(y, x), y, {y: onehot, x: X}), 0.0)


def test_softmax_cross_entropy_loss_unknown_classes_smoothing() -> None:
    onehot = np.eye(5, dtype=np.float32)[SPARSE]
    y = tf.placeholder(tf.float32, [None, None])
    x = tf.placeholder(tf.float32, [None, None])
    loss = losses.softmax_cross_entropy(y, x, label_smoothing=0.2)
    with tf.Session() as s:
        val = s.run(loss, {y: onehot, x: X})
        np.testing.assert_allclose(val, np_xent(onehot * 0.8 + 0.2 / 5, X).mean(), rtol=1e-5)


@pytest.mark.parametrize("labels", [SPARSE, SPARSE[:, None]], ids=["rank1", "rank2"])
def test_sparse_softmax_cross_entropy_loss(labels: np.ndarray) -> None:
    out, val = run_graph(lambda y, x: losses.sparse_softmax_cross_entropy(y, x), labels, X)
    want = -np.log(np_softmax(X))[np.arange(4), SPARSE].mean()
    np.testing.assert_allclose(val, want, rtol=1e-5)
    assert out.name == "sparse_softmax_cross_entropy_loss/value:0"
    with tf.EagerSession():
        np.testing.assert_allclose(np.asarray(losses.sparse_softmax_cross_entropy(labels, X)), want, rtol=1e-5)


def test_sigmoid_cross_entropy_loss_and_others() -> None:
    z = (RNG.random(size=(4, 5)) > 0.5).astype(np.float32)
    _, val = run_graph(lambda y, x: losses.sigmoid_cross_entropy(y, x, label_smoothing=0.2), z, X)
    zs = z * 0.8 + 0.1
    p = np_sigmoid(X.astype(np.float64))
    np.testing.assert_allclose(val, (-zs * np.log(p) - (1 - zs) * np.log(1 - p)).mean(), rtol=1e-4)
    probs = np_sigmoid(X)
    _, val = run_graph(losses.log_loss, z, probs)
    want = (-z * np.log(probs + 1e-7) - (1 - z) * np.log(1 - probs + 1e-7)).mean()
    np.testing.assert_allclose(val, want, rtol=1e-4)
    _, val = run_graph(losses.hinge_loss, z, X)
    np.testing.assert_allclose(val, np.maximum(0, 1 - (2 * z - 1) * X).mean(), rtol=1e-5)


def test_compute_weighted_loss_and_int_inputs() -> None:
    out, val = run_graph(lambda y, p: losses.mean_squared_error(y, p), Y.astype(np.int32), P.astype(np.int32))
    np.testing.assert_allclose(val, ((P.astype(np.int32) - Y.astype(np.int32)) ** 2).mean())
    raw = tf.constant(np.array([1.0, 2.0, 3.0], np.float32))
    cw = losses.compute_weighted_loss(raw, weights=[1.0, 1.0, 0.0])
    assert cw.name == "weighted_loss/value:0"
    with tf.Session() as s:
        assert s.run(cw) == 1.5


@pytest.mark.parametrize(
    "build, match",
    [
        (lambda: losses.mean_squared_error(None, P), "labels"),
        (lambda: losses.mean_squared_error(Y, None), "predictions"),
        (lambda: losses.mean_squared_error(Y, P[:, :2]), "incompatible"),
        (lambda: losses.mean_squared_error(Y, P, weights=np.ones(3, np.float32)), "can not be broadcast"),
        (lambda: losses.mean_squared_error(Y, P, weights=np.ones((3, 1), np.float32)), "can not be broadcast"),
        (lambda: losses.mean_squared_error(Y, P, reduction="avg"), "Invalid Reduction Key avg"),
        (lambda: losses.softmax_cross_entropy(None, X), "labels"),
        (lambda: losses.get_total_loss(), "No losses"),
    ],
)
def test_loss_errors(build: Callable[[], Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        build()


def test_reduction_keys() -> None:
    R = losses.Reduction
    assert R.SUM_OVER_NONZERO_WEIGHTS == R.SUM_BY_NONZERO_WEIGHTS == "weighted_sum_by_nonzero_weights"
    assert set(R.all()) == {"none", "weighted_sum", "weighted_mean", "weighted_sum_over_batch_size",
                            "weighted_sum_by_nonzero_weights"}
    R.validate(R.MEAN)


def test_regularization_loss_collection() -> None:
    assert losses.get_regularization_loss().op.type == "Const"
    r = tf.constant(2.0)
    tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, r)
    main = losses.absolute_difference(Y, P)
    total = losses.get_total_loss()
    with tf.Session() as s:
        np.testing.assert_allclose(s.run(total), s.run(main) + 2.0, rtol=1e-6)
        assert s.run(losses.get_regularization_loss()) == 2.0


# -- namespaces -----------------------------------------------------------------------------------


def test_math_namespace_reexports() -> None:
    assert tfmath.reduce_sum is math_ops.reduce_sum
    assert tfmath.softmax is nn_ops.softmax
    assert tfmath.scalar_mul is math_ops.scalar_mul
    for name in ("add", "log", "sigmoid", "in_top_k", "top_k", "log_softmax", "softplus", "squared_difference"):
        assert callable(getattr(tfmath, name))
    with tf.EagerSession():
        np.testing.assert_allclose(np.asarray(tfmath.reduce_sum(tfmath.softmax(X), axis=1)), np.ones(4), rtol=1e-6)


def test_nn_namespace_is_complete() -> None:
    for name in nn_ops.__all__:
        assert getattr(nn, name) is getattr(nn_ops, name)
    assert nn.max_pool2d is nn.max_pool


def test_nn_surface_errors() -> None:
    with pytest.raises(ValueError, match=r"rank 3, 4 or 5"):
        tf.nn.avg_pool_v2(tf.zeros([2, 3]), 2, 2, "VALID")
    with pytest.raises(ValueError, match=r"data_format 'NWC'"):
        tf.nn.conv1d_transpose(tf.zeros([1, 4, 2]), tf.zeros([2, 3, 2]), [1, 8, 3], 2, data_format="NCW")
    with pytest.raises(ValueError, match=r"at least rank 1"):
        tf.nn.compute_average_loss(tf.constant(1.0))
    with pytest.raises(TypeError, match=r"variance_epsilon and scale_after_normalization"):
        tf.nn.batch_norm_with_global_normalization(tf.zeros([1, 2]), 0.0, 1.0, 0.0, 1.0)



def test_candidate_sampler_errors_and_determinism() -> None:
    labels = tf.constant([[1]], tf.int64)
    with pytest.raises(ValueError, match=r"range_max \(3\) must equal num_reserved_ids"):
        tf.nn.fixed_unigram_candidate_sampler(labels, 1, 1, False, 3, unigrams=[1, 2])
    with pytest.raises(ValueError, match=r"Must provide either vocab_file or unigrams"):
        tf.nn.fixed_unigram_candidate_sampler(labels, 1, 1, False, 3)
    s = tf.nn.fixed_unigram_candidate_sampler(labels, 1, 2, True, 3, unigrams=[1, 0, 2], seed=7)
    with tf.Session() as sess:
        got = sess.run(s.sampled_candidates)
    assert sorted(got.tolist()) == [0, 2]  # the zero-count id is never drawn


def test_conv2d_transpose_shape_mismatch_names_node() -> None:
    x = tf.zeros([1, 4, 4, 2])
    w = tf.zeros([3, 3, 5, 2])
    with pytest.raises(ValueError, match="conv2d_transpose"):
        tf.nn.conv2d_transpose(x, w, [1, 9, 9, 5], [1, 2, 2, 1], "SAME")
    with pytest.raises(ValueError, match="output_channels"):
        tf.nn.conv2d_transpose(x, w, [1, 8, 8, 4], [1, 2, 2, 1], "SAME")



def test_conv2d_transpose_is_the_gradient_of_conv2d() -> None:
    rng = np.random.RandomState(0)
    y = tf.constant(rng.normal(size=(1, 6, 6, 2)).astype(np.float32))
    w = tf.constant(rng.normal(size=(3, 3, 2, 3)).astype(np.float32))
    g = tf.constant(rng.normal(size=(1, 3, 3, 3)).astype(np.float32))
    conv = tf.nn.conv2d(y, w, [1, 2, 2, 1], "SAME")
    (grad,) = tf.gradients(conv, [y], grad_ys=[g])
    t = tf.nn.conv2d_transpose(g, w, [1, 6, 6, 2], [1, 2, 2, 1], "SAME")
    with tf.Session() as sess:
        a, b = sess.run([grad, t])
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)



@pytest.mark.parametrize("sampler", [tf.nn.log_uniform_candidate_sampler, tf.nn.uniform_candidate_sampler])
def test_candidate_sampler_unique_in_range(sampler) -> None:
    labels = tf.constant([[1], [2]], tf.int64)
    s, te, se = sampler(labels, 1, 6, True, 8, seed=3)
    with tf.Session() as sess:
        a, b, c = (np.array(v) for v in sess.run([s, te, se]))
        a2 = np.array(sess.run(s))
    assert a.shape == (6,) and len(set(a.tolist())) == 6
    assert a.min() >= 0 and a.max() < 8
    assert b.shape == (2, 1) and c.shape == (6,)
    assert np.all((c > 0) & (c <= 1.0 + 1e-6))
    assert len(set(a2.tolist())) == 6



def test_candidate_sampler_unique_needs_enough_classes() -> None:
    with pytest.raises(ValueError, match="num_sampled"):
        tf.nn.log_uniform_candidate_sampler(tf.constant([[1]]), 1, 9, True, 8)



def test_nce_loss_trains_weights() -> None:
    tf.set_random_seed(0)  # the sampled negatives differ per run: fixed, so the test is deterministic
    w = tf.Variable(np.full((5, 2), 0.1, np.float32))
    b = tf.Variable(np.zeros(5, np.float32))
    loss = tf.reduce_mean(tf.nn.nce_loss(w, b, tf.constant([[1], [3]]), tf.ones([2, 2]), 2, 5))
    step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = float(np.asarray(sess.run(loss)))
        for _ in range(20):
            sess.run(step)
        assert float(np.asarray(sess.run(loss))) < first



def test_clip_by_global_norm_values_and_none() -> None:
    a = tf.constant([3.0, 4.0])
    b = tf.constant([[12.0]])
    clipped, norm = tf.clip_by_global_norm([a, None, b], 6.5)
    assert clipped[1] is None
    with tf.Session() as sess:
        ca, cb, n = (np.array(v) for v in sess.run([clipped[0], clipped[2], norm]))
    np.testing.assert_allclose(float(n), 13.0, rtol=1e-6)
    np.testing.assert_allclose(ca, [1.5, 2.0], rtol=1e-6)
    np.testing.assert_allclose(cb, [[6.0]], rtol=1e-6)
    with pytest.raises(TypeError, match="sequence"):
        tf.clip_by_global_norm(a, 1.0)


def test_avg_pool_same_divides_by_host_counts() -> None:
    """SAME average pooling's window counts are constants of the program, not a reduce-window
    of ones that XLA would constant-fold while compiling (seconds per pool at 35x35)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 7, 8, 3])
        y = tf.nn.avg_pool2d(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
    val = np.random.RandomState(0).randn(2, 7, 8, 3).astype(np.float32)
    with tf.compat.v1.Session(graph=g) as s:
        text = s.lower(y, {x: val}).as_text()
        got = s.run(y, {x: val})
    assert text.count("reduce_window") == 1
    # TF's SAME: 4x4 windows; height 7 padded (1, 1), width 8 padded (0, 1); the mean of the real ones
    padded = np.pad(val, [(0, 0), (1, 1), (0, 1), (0, 0)], constant_values=np.nan)
    want = np.stack([np.stack([np.nanmean(padded[:, 2 * i:2 * i + 3, 2 * j:2 * j + 3], axis=(1, 2))
                               for j in range(4)], axis=1) for i in range(4)], axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
