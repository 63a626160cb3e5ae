"""Tests of ``jaxsess.layers``, as ``tf.compat.v1.layers``: shapes, variable and
op names, sharing, and values against NumPy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import layers
from jaxsess._tf1.ops import init_ops, nn_ops
from jaxsess._tf1.ops.variable_scope import AUTO_REUSE, variable_scope

RNG = np.random.default_rng(0)


def const_init(value: np.ndarray) -> Any:
    return init_ops.constant_initializer(value)


def run(sess: tf.Session, fetches: Any, feed: Any = None) -> Any:
    sess.run(tf.global_variables_initializer())
    out = sess.run(fetches, feed)
    return [np.asarray(o) for o in out] if isinstance(out, list) else np.asarray(out)


# -- NumPy references ------------------------------------------------------------------


def np_conv2d(x: np.ndarray, k: np.ndarray, stride: tuple[int, int], padding: str) -> np.ndarray:
    """NHWC x HWIO cross-correlation with TF's SAME padding (extra at bottom/right)."""
    n, h, w, _ = x.shape
    kh, kw, _, o = k.shape
    sh, sw = stride
    if padding == "same":
        oh, ow = math.ceil(h / sh), math.ceil(w / sw)
        ph = max((oh - 1) * sh + kh - h, 0)
        pw = max((ow - 1) * sw + kw - w, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.zeros((n, oh, ow, o), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * sh:i * sh + kh, j * sw:j * sw + kw, :]
            out[:, i, j, :] = np.tensordot(patch, k, axes=([1, 2, 3], [0, 1, 2]))
    return out.astype(np.float32)


def np_pool(x: np.ndarray, size: int, stride: int, padding: str, op: str) -> np.ndarray:
    n, h, w, c = x.shape
    if padding == "same":
        oh, ow = math.ceil(h / stride), math.ceil(w / stride)
        ph = max((oh - 1) * stride + size - h, 0)
        pw = max((ow - 1) * stride + size - w, 0)
        top, left = ph // 2, pw // 2
    else:
        oh, ow = (h - size) // stride + 1, (w - size) // stride + 1
        top = left = 0
    out = np.zeros((n, oh, ow, c), np.float32)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * stride - top, j * stride - left
            win = x[:, max(r0, 0):r0 + size, max(c0, 0):c0 + size, :]
            out[:, i, j, :] = win.max(axis=(1, 2)) if op == "max" else win.mean(axis=(1, 2))
    return out


class TestDense:
    def test_shapes_names_and_values(self, sess: tf.Session) -> None:
        kernel = RNG.normal(size=(4, 3)).astype(np.float32)
        bias = np.array([0.1, -0.2, 0.3], np.float32)
        x = tf.placeholder(tf.float32, [None, 4])
        y = layers.dense(x, 3, activation=nn_ops.relu, kernel_initializer=const_init(kernel),
                         bias_initializer=const_init(bias))
        assert y.shape.as_list() == [None, 3] and y.dtype == tf.float32
        assert [v.op.name for v in tf.global_variables()] == ["dense/kernel", "dense/bias"]
        assert [v.op.name for v in tf.trainable_variables()] == ["dense/kernel", "dense/bias"]
        assert y.op.name == "dense/Relu"
        xv = RNG.normal(size=(5, 4)).astype(np.float32)
        np.testing.assert_allclose(run(sess, y, {x: xv}), np.maximum(xv @ kernel + bias, 0), rtol=1e-5, atol=1e-6)

    def test_unnamed_layers_get_unique_scopes(self) -> None:
        x = tf.placeholder(tf.float32, [None, 4])
        h = layers.dense(x, 8)
        layers.dense(h, 2)
        names = [v.op.name for v in tf.global_variables()]
        assert names == ["dense/kernel", "dense/bias", "dense_1/kernel", "dense_1/bias"]
        assert tf.global_variables()[2].shape.as_list() == [8, 2]

    def test_default_initializers(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None, 100])
        layers.dense(x, 50)
        kernel, bias = run(sess, tf.global_variables())
        limit = math.sqrt(6.0 / 150)
        assert np.abs(kernel).max() <= limit and kernel.std() > 0.4 * limit
        np.testing.assert_array_equal(bias, np.zeros(50))

    def test_no_bias_and_string_activation(self, sess: tf.Session) -> None:
        kernel = RNG.normal(size=(2, 2)).astype(np.float32)
        x = tf.constant(np.array([[1.0, -1.0]], np.float32))
        y = layers.dense(x, 2, activation="tanh", use_bias=False, kernel_initializer=const_init(kernel))
        assert [v.op.name for v in tf.global_variables()] == ["dense/kernel"]
        np.testing.assert_allclose(run(sess, y), np.tanh(np.array([[1.0, -1.0]]) @ kernel), rtol=1e-6)

    def test_rank_3_inputs(self, sess: tf.Session) -> None:
        kernel = RNG.normal(size=(4, 2)).astype(np.float32)
        x = tf.placeholder(tf.float32, [None, 5, 4])
        y = layers.dense(x, 2, kernel_initializer=const_init(kernel))
        assert y.shape.as_list() == [None, 5, 2]
        xv = RNG.normal(size=(3, 5, 4)).astype(np.float32)
        np.testing.assert_allclose(run(sess, y, {x: xv}), xv @ kernel, rtol=1e-5, atol=1e-6)

    def test_same_name_twice_without_reuse_raises(self) -> None:
        x = tf.placeholder(tf.float32, [None, 4])
        layers.dense(x, 3, name="fc")
        with pytest.raises(ValueError, match="Variable fc/kernel already exists"):
            layers.dense(x, 3, name="fc")

    def test_reuse_shares_variables(self, sess: tf.Session) -> None:
        x1 = tf.placeholder(tf.float32, [None, 4])
        x2 = tf.placeholder(tf.float32, [None, 4])
        y1 = layers.dense(x1, 3, name="fc")
        y2 = layers.dense(x2, 3, name="fc", reuse=True)
        assert len(tf.global_variables()) == 2
        assert y2.op.name.startswith("fc_1/")
        xv = RNG.normal(size=(2, 4)).astype(np.float32)
        a, b = run(sess, [y1, y2], {x1: xv, x2: xv})
        np.testing.assert_array_equal(a, b)

    def test_reuse_true_for_a_missing_layer_raises(self) -> None:
        x = tf.placeholder(tf.float32, [None, 4])
        with pytest.raises(ValueError, match="Variable fc/kernel does not exist"):
            layers.dense(x, 3, name="fc", reuse=True)

    def test_reuse_through_enclosing_scope(self) -> None:
        x = tf.placeholder(tf.float32, [None, 4])

        def net(inp: Any) -> Any:
            with variable_scope("model", reuse=AUTO_REUSE):
                return layers.dense(layers.dense(inp, 8), 2)

        net(x)
        net(x)
        names = [v.op.name for v in tf.global_variables()]
        assert names == ["model/dense/kernel", "model/dense/bias", "model/dense_1/kernel", "model/dense_1/bias"]

    def test_layer_object_called_twice_reuses(self, sess: tf.Session) -> None:
        layer = layers.Dense(3, name="proj")
        x1 = tf.placeholder(tf.float32, [None, 4])
        x2 = tf.placeholder(tf.float32, [None, 4])
        y1 = layer(x1)
        y2 = layer(x2)
        assert layer.built
        assert [v.op.name for v in layer.variables] == ["proj/kernel", "proj/bias"]
        assert layer.trainable_variables == [layer.kernel, layer.bias]
        assert len(tf.global_variables()) == 2
        assert y1.op.name.startswith("proj/") and y2.op.name.startswith("proj/")
        xv = RNG.normal(size=(2, 4)).astype(np.float32)
        a, b = run(sess, [y1, y2], {x1: xv, x2: xv})
        np.testing.assert_array_equal(a, b)

    def test_not_trainable(self) -> None:
        x = tf.placeholder(tf.float32, [None, 4])
        layer = layers.Dense(2, trainable=False)
        layer(x)
        assert tf.trainable_variables() == []
        assert len(tf.global_variables()) == 2
        assert layer.trainable_variables == [] and len(layer.non_trainable_variables) == 2

    def test_regularizers(self, sess: tf.Session) -> None:
        kernel = np.ones((2, 2), np.float32)
        x = tf.placeholder(tf.float32, [None, 2])
        layers.dense(x, 2, kernel_initializer=const_init(kernel),
                     kernel_regularizer=lambda w: 0.5 * tf.reduce_sum(w * w),
                     bias_regularizer=lambda b: tf.reduce_sum(b) + 1.0)
        losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        assert len(losses) == 2
        assert [float(v) for v in run(sess, losses)] == [2.0, 1.0]

    def test_activity_regularizer(self, sess: tf.Session) -> None:
        x = tf.constant(np.ones((4, 2), np.float32))
        layers.dense(x, 3, kernel_initializer=init_ops.ones_initializer(),
                     activity_regularizer=lambda y: tf.reduce_sum(y))
        (loss,) = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        assert float(run(sess, loss)) == pytest.approx(4 * 3 * 2.0 / 4)  # divided by the batch size

    def test_unknown_last_dimension(self) -> None:
        x = tf.placeholder(tf.float32, [None, None])
        with pytest.raises(ValueError, match="last dimension of the inputs to `Dense` should be defined"):
            layers.dense(x, 3)

    def test_scope_initializer_applies_to_the_kernel(self, sess: tf.Session) -> None:
        x = tf.constant(np.ones((1, 2), np.float32))
        with variable_scope("s", initializer=init_ops.constant_initializer(0.5)):
            y = layers.dense(x, 1)
        assert float(run(sess, y)[0, 0]) == 1.0

    def test_gradients_flow_to_layer_variables(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None, 3])
        y = layers.dense(x, 1, kernel_initializer=init_ops.ones_initializer())
        loss = tf.reduce_sum(y)
        gk, gb = tf.gradients(loss, tf.trainable_variables())
        xv = RNG.normal(size=(4, 3)).astype(np.float32)
        rk, rb = run(sess, [gk, gb], {x: xv})
        np.testing.assert_allclose(rk, xv.sum(axis=0, keepdims=True).T, rtol=1e-5)
        np.testing.assert_allclose(rb, [4.0])


class TestConv2D:
    @pytest.mark.parametrize("padding,strides", [("valid", 1), ("same", 1), ("same", 2), ("valid", 2)])
    def test_values_against_numpy(self, sess: tf.Session, padding: str, strides: int) -> None:
        kernel = RNG.normal(size=(3, 3, 2, 4)).astype(np.float32)
        bias = RNG.normal(size=(4,)).astype(np.float32)
        x = tf.placeholder(tf.float32, [None, 7, 6, 2])
        y = layers.conv2d(x, 4, 3, strides=strides, padding=padding.upper() if strides == 2 else padding,
                          kernel_initializer=const_init(kernel), bias_initializer=const_init(bias))
        xv = RNG.normal(size=(2, 7, 6, 2)).astype(np.float32)
        expect = np_conv2d(xv, kernel, (strides, strides), padding) + bias
        assert y.shape.as_list() == [None, *expect.shape[1:]]
        np.testing.assert_allclose(run(sess, y, {x: xv}), expect, rtol=1e-4, atol=1e-4)

    def test_names_and_kernel_shape(self) -> None:
        x = tf.placeholder(tf.float32, [None, 8, 8, 3])
        y = layers.conv2d(x, 16, (5, 3), activation=nn_ops.relu)
        layers.conv2d(y, 8, 3)
        names = [(v.op.name, v.shape.as_list()) for v in tf.global_variables()]
        assert names == [("conv2d/kernel", [5, 3, 3, 16]), ("conv2d/bias", [16]),
                         ("conv2d_1/kernel", [3, 3, 16, 8]), ("conv2d_1/bias", [8])]
        assert y.op.name == "conv2d/Relu"
        assert y.shape.as_list() == [None, 4, 6, 16]

    def test_channels_first(self, sess: tf.Session) -> None:
        kernel = RNG.normal(size=(3, 3, 2, 4)).astype(np.float32)
        bias = RNG.normal(size=(4,)).astype(np.float32)
        x = tf.placeholder(tf.float32, [None, 2, 6, 6])
        y = layers.conv2d(x, 4, 3, padding="same", data_format="channels_first",
                          kernel_initializer=const_init(kernel), bias_initializer=const_init(bias))
        assert y.shape.as_list() == [None, 4, 6, 6]
        xv = RNG.normal(size=(1, 2, 6, 6)).astype(np.float32)
        expect = np_conv2d(xv.transpose(0, 2, 3, 1), kernel, (1, 1), "same") + bias
        np.testing.assert_allclose(run(sess, y, {x: xv}), expect.transpose(0, 3, 1, 2), rtol=1e-4, atol=1e-4)

    def test_dilation(self, sess: tf.Session) -> None:
        kernel = RNG.normal(size=(2, 2, 1, 1)).astype(np.float32)
        x = tf.placeholder(tf.float32, [1, 5, 5, 1])
        y = layers.conv2d(x, 1, 2, dilation_rate=2, use_bias=False, kernel_initializer=const_init(kernel))
        assert y.shape.as_list() == [1, 3, 3, 1]
        dilated = np.zeros((3, 3, 1, 1), np.float32)
        dilated[::2, ::2] = kernel
        xv = RNG.normal(size=(1, 5, 5, 1)).astype(np.float32)
        np.testing.assert_allclose(run(sess, y, {x: xv}), np_conv2d(xv, dilated, (1, 1), "valid"),
                                   rtol=1e-4, atol=1e-5)

    def test_bad_arguments(self) -> None:
        x = tf.placeholder(tf.float32, [None, 8, 8, 3])
        with pytest.raises(ValueError, match="padding"):
            layers.conv2d(x, 4, 3, padding="full")
        with pytest.raises(ValueError, match="kernel_size"):
            layers.conv2d(x, 4, (3, 3, 3))
        with pytest.raises(ValueError, match="data_format"):
            layers.conv2d(x, 4, 3, data_format="NHWC")
        with pytest.raises(ValueError, match="channel dimension"):
            layers.conv2d(tf.placeholder(tf.float32, [None, 8, 8, None]), 4, 3)


class TestPoolingAndFlatten:
    @pytest.mark.parametrize("padding", ["valid", "same"])
    @pytest.mark.parametrize("op", ["max", "avg"])
    def test_pooling_against_numpy(self, sess: tf.Session, padding: str, op: str) -> None:
        x = tf.placeholder(tf.float32, [None, 7, 7, 2])
        fn = layers.max_pooling2d if op == "max" else layers.average_pooling2d
        y = fn(x, 3, 2, padding=padding)
        xv = RNG.normal(size=(2, 7, 7, 2)).astype(np.float32)
        expect = np_pool(xv, 3, 2, padding, op)
        assert y.shape.as_list() == [None, *expect.shape[1:]]
        np.testing.assert_allclose(run(sess, y, {x: xv}), expect, rtol=1e-5, atol=1e-6)

    def test_pooling_names(self) -> None:
        x = tf.placeholder(tf.float32, [None, 4, 4, 1])
        a = layers.max_pooling2d(x, 2, 2)
        b = layers.max_pooling2d(a, 2, 2)
        c = layers.average_pooling2d(x, 2, 2, name="avg")
        assert (a.op.name, b.op.name, c.op.name) == (
            "max_pooling2d/MaxPool", "max_pooling2d_1/MaxPool", "avg/AvgPool")
        assert tf.global_variables() == []

    def test_pooling_channels_first(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None, 2, 4, 4])
        y = layers.max_pooling2d(x, 2, 2, data_format="channels_first")
        assert y.shape.as_list() == [None, 2, 2, 2]
        xv = RNG.normal(size=(1, 2, 4, 4)).astype(np.float32)
        expect = np_pool(xv.transpose(0, 2, 3, 1), 2, 2, "valid", "max").transpose(0, 3, 1, 2)
        np.testing.assert_allclose(run(sess, y, {x: xv}), expect)

    def test_flatten(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None, 3, 4, 2])
        y = layers.flatten(x)
        assert y.shape.as_list() == [None, 24]
        assert y.op.name.startswith("flatten/")
        xv = RNG.normal(size=(5, 3, 4, 2)).astype(np.float32)
        np.testing.assert_array_equal(run(sess, y, {x: xv}), xv.reshape(5, 24))

    def test_flatten_channels_first_moves_channels_last(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None, 2, 3, 3])
        y = layers.flatten(x, data_format="channels_first")
        xv = RNG.normal(size=(2, 2, 3, 3)).astype(np.float32)
        np.testing.assert_array_equal(run(sess, y, {x: xv}), xv.transpose(0, 2, 3, 1).reshape(2, 18))

    def test_flatten_rank_1(self, sess: tf.Session) -> None:
        y = layers.flatten(tf.constant(np.array([1.0, 2.0], np.float32)))
        assert y.shape.as_list() == [2, 1]

    def test_small_convnet(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None, 8, 8, 1])
        h = layers.conv2d(x, 4, 3, padding="same", activation=nn_ops.relu)
        h = layers.max_pooling2d(h, 2, 2)
        h = layers.flatten(h)
        logits = layers.dense(h, 10)
        assert logits.shape.as_list() == [None, 10]
        out = run(sess, logits, {x: RNG.normal(size=(3, 8, 8, 1)).astype(np.float32)})
        assert out.shape == (3, 10) and np.all(np.isfinite(out))
        assert [v.op.name for v in tf.trainable_variables()] == [
            "conv2d/kernel", "conv2d/bias", "dense/kernel", "dense/bias"]


class TestDropout:
    def test_python_bool_training(self, sess: tf.Session) -> None:
        x = tf.constant(np.ones((100, 100), np.float32))
        off = layers.dropout(x, 0.4, training=False)
        on = layers.dropout(x, 0.4, training=True, seed=1)
        v_off, v_on = run(sess, [off, on])
        np.testing.assert_array_equal(v_off, np.ones((100, 100)))
        np.testing.assert_allclose(v_on[v_on != 0], 1 / 0.6, rtol=1e-6)
        assert abs((v_on == 0).mean() - 0.4) < 0.03

    def test_tensor_training_uses_cond(self, sess: tf.Session) -> None:
        x = tf.constant(np.ones((100, 100), np.float32))
        training = tf.placeholder(tf.bool, [])
        y = layers.dropout(x, 0.5, training=training, seed=2)
        sess.run(tf.global_variables_initializer())
        v_off = np.asarray(sess.run(y, {training: False}))
        v_on = np.asarray(sess.run(y, {training: True}))
        np.testing.assert_array_equal(v_off, np.ones((100, 100)))
        assert abs((v_on == 0).mean() - 0.5) < 0.03
        np.testing.assert_allclose(v_on[v_on != 0], 2.0)

    def test_placeholder_with_default_training(self, sess: tf.Session) -> None:
        x = tf.constant(np.ones((50, 50), np.float32))
        training = tf.placeholder_with_default(False, [])
        y = layers.dropout(x, 0.5, training=training, seed=3)
        np.testing.assert_array_equal(np.asarray(sess.run(y)), np.ones((50, 50)))
        assert (np.asarray(sess.run(y, {training: True})) == 0).any()

    def test_each_run_new_mask(self, sess: tf.Session) -> None:
        x = tf.constant(np.ones(200, np.float32))
        y = layers.dropout(x, 0.5, training=True, seed=4)
        a, b = (np.asarray(sess.run(y)) for _ in range(2))
        assert not np.array_equal(a, b)

    def test_noise_shape_with_none(self, sess: tf.Session) -> None:
        x = tf.constant(np.ones((64, 5), np.float32))
        y = layers.dropout(x, 0.5, noise_shape=[None, 1], training=True, seed=5)
        v = np.asarray(sess.run(y))
        for row in v:
            assert np.all(row == 0) or np.all(row == 2.0)

    def test_names(self) -> None:
        x = tf.constant(np.ones(4, np.float32))
        a = layers.dropout(x, training=True)
        b = layers.dropout(x, training=False, name="drop")
        assert a.op.name.startswith("dropout/") and b.op.name.startswith("drop/")


class TestEager:
    def test_layer_object_runs_eagerly(self) -> None:
        kernel = RNG.normal(size=(4, 3)).astype(np.float32)
        xv = RNG.normal(size=(2, 4)).astype(np.float32)
        with tf.EagerSession():
            layer = layers.Dense(3, kernel_initializer=const_init(kernel))
            a = np.asarray(layer(tf.constant(xv)))
            b = np.asarray(layer(tf.constant(xv)))
            assert len(layer.variables) == 2
            np.testing.assert_allclose(a, xv @ kernel, rtol=1e-5, atol=1e-6)
            np.testing.assert_array_equal(a, b)
            pooled = layers.max_pooling2d(tf.constant(np.ones((1, 4, 4, 2), np.float32)), 2, 2)
            assert tuple(pooled.shape) == (1, 2, 2, 2)
            flat = layers.flatten(pooled)
            assert tuple(flat.shape) == (1, 8)
            kept = np.asarray(layers.dropout(tf.constant(xv), 0.5, training=False))
            np.testing.assert_array_equal(kept, xv)


class TestLayerObjects:
    def test_names(self) -> None:
        x = tf.placeholder(tf.float32, [None, 4])
        a, b, c = layers.Dense(2), layers.Dense(2), layers.Dense(2, name="head")
        with pytest.raises(ValueError, match="not been used"):
            _ = a.scope_name
        a(x)
        b(x)
        c(x)
        assert (a.name, b.name, c.name) == ("dense", "dense_1", "head")
        assert (a.scope_name, b.scope_name, c.scope_name) == ("dense", "dense_1", "head")

    def test_layer_built_inside_cond_lifts_its_variables(self) -> None:
        x = tf.placeholder(tf.float32, [None, 2])
        p = tf.placeholder(tf.bool, [])
        y = tf.cond(
            p,
            lambda: layers.dense(x, 3, name="inside", kernel_initializer=init_ops.ones_initializer()),
            lambda: tf.zeros([1, 3]),
        )
        assert [v.op.name for v in tf.global_variables()] == ["inside/kernel", "inside/bias"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())  # the initializers run outside the cond
            xv = np.array([[1.0, 2.0]], np.float32)
            np.testing.assert_allclose(np.asarray(sess.run(y, {x: xv, p: True})), [[3.0, 3.0, 3.0]])
            np.testing.assert_allclose(np.asarray(sess.run(y, {x: xv, p: False})), [[0.0, 0.0, 0.0]])

    def test_prebuilt_layer_works_inside_cond(self) -> None:
        x = tf.placeholder(tf.float32, [None, 2])
        p = tf.placeholder(tf.bool, [])
        layer = layers.Dense(3, kernel_initializer=init_ops.ones_initializer())
        y0 = layer(x)  # builds the variables outside the cond
        y = tf.cond(p, lambda: layer(x), lambda: y0 * 0.0)
        sess2 = tf.Session()
        try:
            sess2.run(tf.global_variables_initializer())
            xv = np.array([[1.0, 2.0]], np.float32)
            np.testing.assert_allclose(np.asarray(sess2.run(y, {x: xv, p: True})), [[3.0, 3.0, 3.0]])
            np.testing.assert_allclose(np.asarray(sess2.run(y, {x: xv, p: False})), [[0.0, 0.0, 0.0]])
        finally:
            sess2.close()


def test_batch_normalization_variables_and_update_ops() -> None:
    x = tf.placeholder(tf.float32, [None, 3])
    training = tf.placeholder(tf.bool, [])
    y = tf.layers.batch_normalization(x, training=training, momentum=0.5)
    names = [v.name for v in tf.global_variables()]
    assert names == ["batch_normalization/gamma:0", "batch_normalization/beta:0",
                     "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
    assert [v.name for v in tf.trainable_variables()] == names[:2]
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert len(updates) == 2
    data = np.array([[1.0, 2.0, 3.0], [3.0, 6.0, 9.0]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = np.asarray(sess.run(y, {x: data, training: True}))
        np.testing.assert_allclose(out[:, 0], [-1.0, 1.0], atol=1e-3)
        sess.run(updates, {x: data, training: False})  # inference: no move
        mm = tf.global_variables()[2]
        np.testing.assert_allclose(np.asarray(sess.run(mm)), [0.0, 0.0, 0.0])
        sess.run(updates, {x: data, training: True})
        np.testing.assert_allclose(np.asarray(sess.run(mm)), [1.0, 2.0, 3.0])



def test_contrib_layers_aliases() -> None:
    flat = tf.contrib.layers.flatten(tf.zeros([2, 3, 4]))  # TF-slim's: scope `Flatten`
    assert flat.shape.as_list() == [2, 12] and flat.name.startswith("Flatten/")
    init = tf.contrib.layers.xavier_initializer(uniform=False)
    assert init.distribution == "truncated_normal" and init.mode == "fan_avg"
