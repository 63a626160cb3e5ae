"""Convolution formulations chosen per platform (``jaxsess/_tf1/ops/_conv_cpu.py``).

TF's values are checked by the corpus (``tests/tf1_corpus/programs/v90_depthwise_cases.py``,
recorded from real TF); here the CPU formulation is checked against the direct grouped
convolution other platforms keep, over random cases, values and gradients, and the choice
is checked in the lowered programs.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import jaxsess.compat.v1 as tf
import numpy as np
from hypothesis import given, settings, strategies as st

from jaxsess._tf1.ops import _conv_cpu


@st.composite
def _cases(draw: Any) -> tuple[Any, ...]:
    fmt = draw(st.sampled_from(["NHWC", "NCHW"]))
    k = draw(st.sampled_from([1, 2, 3, 5]))
    stride = draw(st.integers(1, 3))
    dil = 1 if stride > 1 else draw(st.integers(1, 2))
    pad = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    if pad == "explicit":
        pad = tuple((draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(2))
    m = draw(st.integers(1, 3))
    c = draw(st.integers(1, 4))
    h = draw(st.integers((k - 1) * dil + 1, 9))
    w = draw(st.integers((k - 1) * dil + 1, 9))
    seed = draw(st.integers(0, 2**16))
    return fmt, k, stride, dil, pad, m, c, h, w, seed


@settings(max_examples=10, deadline=None)
@given(_cases())
def test_shifted_products_equal_the_grouped_convolution(case: tuple[Any, ...]) -> None:
    fmt, k, stride, dil, pad, m, c, h, w, seed = case
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, (2, h, w, c)).astype(np.float32)
    if fmt == "NCHW":
        x = x.transpose(0, 3, 1, 2)
    f = rng.uniform(-1, 1, (k, k, c, m)).astype(np.float32)
    args = ((stride, stride), pad, (dil, dil), fmt)

    def loss(impl: Any) -> Any:
        return lambda a, b: jnp.sum(jnp.sin(impl(a, b, *args)))

    direct = _conv_cpu.depthwise_direct(x, f, *args)
    shifted = _conv_cpu.depthwise_shifted(x, f, *args)
    assert shifted.shape == direct.shape and shifted.dtype == direct.dtype
    np.testing.assert_allclose(shifted, direct, rtol=1e-5, atol=1e-5)
    g_direct = jax.grad(loss(_conv_cpu.depthwise_direct), (0, 1))(x, f)
    g_shifted = jax.grad(loss(_conv_cpu.depthwise_shifted), (0, 1))(x, f)
    for a, b in zip(g_shifted, g_direct, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


def test_shifted_products_trace_to_structural_primitives_only() -> None:
    # The taps are traced once per layer per lowering (a frozen EfficientNet has 16 layers of
    # 9 or 25 taps): lax slices, not jnp indexing (``w[i, j]`` traces to slice + squeeze
    # through jnp's indexing machinery, ~2x the trace time of the whole layer).
    allowed = {"pad", "slice", "reshape", "broadcast_in_dim", "mul", "add", "reduce_precision"}
    for fmt, m, k in [("NHWC", 1, 3), ("NHWC", 2, 3), ("NCHW", 1, 5), ("NCHW", 3, 3)]:
        x = np.zeros((2, 9, 9, 4) if fmt == "NHWC" else (2, 4, 9, 9), np.float32)
        f = np.zeros((k, k, 4, m), np.float32)
        jaxpr = jax.make_jaxpr(lambda a, b, fmt=fmt: _conv_cpu.depthwise_shifted(a, b, (1, 1), "SAME", (1, 1), fmt))(x, f)
        prims = [e.primitive.name for e in jaxpr.eqns]
        assert set(prims) <= allowed, (fmt, m, k, sorted(set(prims) - allowed))
        assert prims.count("slice") == 2 * k * k and prims.count("mul") == k * k, (fmt, m, k, prims)


def test_half_precision_accumulates_in_float32() -> None:
    rng = np.random.RandomState(0)
    x = jnp.asarray(rng.uniform(-1, 1, (1, 6, 6, 3)), jnp.bfloat16)
    f = jnp.asarray(rng.uniform(-1, 1, (3, 3, 3, 1)), jnp.bfloat16)
    out = _conv_cpu.depthwise_shifted(x, f, (1, 1), "SAME", (1, 1), "NHWC")
    exact = _conv_cpu.depthwise_direct(x.astype(jnp.float32), f.astype(jnp.float32), (1, 1), "SAME", (1, 1), "NHWC")
    assert out.dtype == jnp.bfloat16
    np.testing.assert_allclose(out.astype(np.float32), exact.astype(np.float32).astype(jnp.bfloat16).astype(np.float32),
                               rtol=1e-2, atol=1e-2)


def _lowered(platforms: tuple[str, ...], w_shape: tuple[int, ...] = (3, 3, 4, 1)) -> str:
    fn = jax.jit(lambda x, w: _conv_cpu.depthwise(x, w, (1, 1), "SAME", (1, 1), "NHWC"))
    x = jnp.ones((1, 12, 12, 4))
    w = jnp.ones(w_shape)
    return str(fn.trace(x, w).lower(lowering_platforms=platforms).as_text())


def test_cpu_lowers_shifted_products_other_platforms_the_convolution() -> None:
    cpu = _lowered(("cpu",))
    assert "convolution" not in cpu and cpu.count("stablehlo.multiply") == 9
    assert cpu.count("stablehlo.reduce_precision") == 1  # the loop's end (_conv_cpu._end_of_loop)
    for platform in ("cuda", "tpu"):
        other = _lowered((platform,))
        assert "convolution" in other and "stablehlo.multiply" not in other
    both = _lowered(("cpu", "cuda"))  # a multi-platform export carries both, chosen at run time
    assert "convolution" in both and both.count("stablehlo.multiply") == 9


def test_the_end_of_loop_marker_is_the_identity() -> None:
    specials = [0.0, -0.0, 1e-45, 1e-40, 6e-8, 0.1, 1.0000001, 65504.0, 3.4e38, np.inf, -np.inf, np.nan]
    for dtype in (jnp.float32, jnp.bfloat16, jnp.float16):
        finite = float(jnp.finfo(dtype).max)
        kept = [s for s in specials if np.isnan(s) or np.isinf(s) or abs(s) <= finite]
        v = np.asarray(jnp.asarray(kept, dtype).astype(jnp.float32))
        out = np.asarray(_conv_cpu._end_of_loop(jnp.asarray(v, dtype)).astype(jnp.float32))
        np.testing.assert_array_equal(out, v)
        np.testing.assert_array_equal(np.signbit(out), np.signbit(v))


def test_large_kernels_keep_the_convolution_on_cpu() -> None:
    assert not _conv_cpu.use_shifted_depthwise((11, 11, 4, 1))
    assert "convolution" in _lowered(("cpu",), (11, 11, 4, 1))


def test_graph_depthwise_runs_the_cpu_formulation_and_differentiates() -> None:
    rng = np.random.RandomState(3)
    xv = rng.uniform(-1, 1, (2, 7, 7, 3)).astype(np.float32)
    fv = rng.uniform(-1, 1, (3, 3, 3, 2)).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 7, 7, 3])
        f = tf.constant(fv)
        y = tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME")
        (dx,) = tf.gradients(tf.reduce_sum(y * y), [x])
        with tf.Session(graph=g) as sess:
            yv, dxv = sess.run([y, dx], {x: xv})
    want = _conv_cpu.depthwise_direct(xv, fv, (2, 2), "SAME", (1, 1), "NHWC")
    want_dx = jax.grad(lambda a: jnp.sum(_conv_cpu.depthwise_direct(a, fv, (2, 2), "SAME", (1, 1), "NHWC") ** 2))(xv)
    assert yv.shape == (2, 4, 4, 6)
    np.testing.assert_allclose(yv, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dxv, want_dx, rtol=1e-4, atol=1e-4)
