"""``Session.warmup``: a plan compiled ahead of time, nothing run; the first run compiles nothing."""

from __future__ import annotations

import logging

import jax
import numpy as np
import pytest

import jaxsess as tf
from jaxsess._core._config import ConfigProto

LOG = ConfigProto(log_compilations=True)


def compiles(caplog: pytest.LogCaptureFixture) -> int:
    return sum(r.getMessage().startswith("Compiling plan") for r in caplog.records)


def _model() -> tuple[tf.Tensor, tf.Tensor, tf.Variable, tf.Operation, tf.Tensor]:
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None], name="y")
    w = tf.Variable(np.array([[1.0], [2.0], [-1.0]], np.float32), name="w")
    pred = tf.squeeze(tf.matmul(x, w), 1)
    loss = tf.reduce_mean(tf.square(pred - y))
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    return x, y, w, train, loss


def test_warmup_compiles_the_train_step_without_running_it(caplog: pytest.LogCaptureFixture) -> None:
    x, y, w, train, loss = _model()
    xv = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    yv = np.ones(4, np.float32)
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session(config=LOG) as s, tf.Session() as ref:
        s.run(tf.global_variables_initializer())
        ref.run(tf.global_variables_initializer())
        w0 = s.run(w)
        caplog.clear()
        compiled = s.warmup([train, loss], {x: (4, 3), "y:0": (4,)})
        assert compiles(caplog) == 1
        assert isinstance(compiled, jax.stages.Compiled)
        np.testing.assert_array_equal(s.run(w), w0)  # nothing ran: no step, no slot update
        caplog.clear()
        for _ in range(3):
            got = s.run([train, loss], {x: xv, y: yv})
            want = ref.run([train, loss], {x: xv, y: yv})
            np.testing.assert_allclose(got[1], want[1], rtol=1e-6)
        assert compiles(caplog) == 0
        np.testing.assert_allclose(s.run(w), ref.run(w), rtol=1e-6)


def test_warmup_of_a_stateless_plan_serves_make_callable(caplog: pytest.LogCaptureFixture) -> None:
    x, _, w, _, _ = _model()
    out = tf.nn.relu(tf.matmul(x, w))
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session(config=LOG) as s:
        s.run(w.initializer)
        s.warmup(out, {x: jax.ShapeDtypeStruct((2, 3), np.float32)})
        s.warmup(out, {x: np.zeros((5, 3), np.float32)})  # a second batch size
        caplog.clear()
        f = s.make_callable(out, [x])
        a = f(np.ones((2, 3), np.float32))
        b = s.run(out, {x: np.ones((5, 3), np.float32)})
        assert compiles(caplog) == 0
        np.testing.assert_allclose(a, np.full((2, 1), 2.0, np.float32))
        assert b.shape == (5, 1)


def test_warmup_rejects_shapes_that_do_not_fit() -> None:
    x, y, _, train, loss = _model()
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        with pytest.raises(ValueError, match=r"warmup: shape \[4, 2\] does not fit Tensor x:0"):
            s.warmup(loss, {x: (4, 2), y: (4,)})
        with pytest.raises(TypeError, match="warmup: the shape for Tensor y:0 must be a sequence of ints"):
            s.warmup(loss, {x: (4, 3), y: 4})
        with pytest.raises(ValueError, match="Cannot feed a ShapeDtypeStruct of dtype int32 for Tensor x:0"):
            s.warmup(loss, {x: jax.ShapeDtypeStruct((4, 3), np.int32), y: (4,)})
        with pytest.raises(tf.errors.InvalidArgumentError, match="y"):
            s.warmup(train, {x: (4, 3)})  # y not given: the plan cannot be built
