"""Tests of ``nn.rnn_cell`` and ``nn.dynamic_rnn`` / ``static_rnn`` /
bidirectional RNNs: NumPy references, variable names, errors, gradients.
TF's own values are checked by the ``v13r_*`` corpus programs."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf

rnn_cell = tf.nn.rnn_cell


def val(sess: tf.Session, t: Any, feed: Any = None) -> Any:
    return jax.tree_util.tree_map(np.asarray, sess.run(t, feed))


def known(shape: Any, k: int) -> np.ndarray:
    n = int(np.prod(shape))
    return (0.5 * np.sin(np.arange(n) * 0.7 + k)).reshape(shape).astype(np.float32)


def assign_known(sess: tf.Session) -> dict[str, np.ndarray]:
    variables = tf.global_variables()
    values = {v.op.name: known(v.shape.as_list(), i) for i, v in enumerate(variables)}
    sess.run([v.assign(values[v.op.name]) for v in variables])
    return values


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def np_lstm(x: np.ndarray, lengths: np.ndarray, kernel: np.ndarray, bias: np.ndarray,
            forget_bias: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """BasicLSTMCell over [B, T, D] with TF1's length masking."""
    b, t, _ = x.shape
    n = bias.shape[0] // 4
    c, h = np.zeros((b, n), np.float32), np.zeros((b, n), np.float32)
    outs = np.zeros((b, t, n), np.float32)
    for s in range(t):
        g = np.concatenate([x[:, s], h], 1) @ kernel + bias
        i, j, f, o = np.split(g, 4, axis=1)
        nc = c * sigmoid(f + forget_bias) + sigmoid(i) * np.tanh(j)
        nh = np.tanh(nc) * sigmoid(o)
        live = (s < lengths)[:, None]
        c, h = np.where(live, nc, c), np.where(live, nh, h)
        outs[:, s] = np.where(live, nh, 0.0)
    return outs, c, h


class TestNames:
    def test_dynamic_rnn_variable_names(self) -> None:
        x = tf.placeholder(tf.float32, [2, 3, 4])
        tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)
        stack = rnn_cell.MultiRNNCell([rnn_cell.GRUCell(3), rnn_cell.LSTMCell(2, use_peepholes=True, num_proj=1)])
        tf.nn.dynamic_rnn(stack, x, dtype=tf.float32, scope="deep")
        tf.nn.bidirectional_dynamic_rnn(rnn_cell.BasicRNNCell(2), rnn_cell.BasicRNNCell(2), x, dtype=tf.float32)
        names = {v.op.name: v.shape.as_list() for v in tf.global_variables()}
        assert names == {
            "rnn/basic_lstm_cell/kernel": [9, 20],
            "rnn/basic_lstm_cell/bias": [20],
            "deep/multi_rnn_cell/cell_0/gru_cell/gates/kernel": [7, 6],
            "deep/multi_rnn_cell/cell_0/gru_cell/gates/bias": [6],
            "deep/multi_rnn_cell/cell_0/gru_cell/candidate/kernel": [7, 3],
            "deep/multi_rnn_cell/cell_0/gru_cell/candidate/bias": [3],
            "deep/multi_rnn_cell/cell_1/lstm_cell/kernel": [4, 8],
            "deep/multi_rnn_cell/cell_1/lstm_cell/bias": [8],
            "deep/multi_rnn_cell/cell_1/lstm_cell/w_f_diag": [2],
            "deep/multi_rnn_cell/cell_1/lstm_cell/w_i_diag": [2],
            "deep/multi_rnn_cell/cell_1/lstm_cell/w_o_diag": [2],
            "deep/multi_rnn_cell/cell_1/lstm_cell/projection/kernel": [2, 1],
            "bidirectional_rnn/fw/basic_rnn_cell/kernel": [6, 2],
            "bidirectional_rnn/fw/basic_rnn_cell/bias": [2],
            "bidirectional_rnn/bw/basic_rnn_cell/kernel": [6, 2],
            "bidirectional_rnn/bw/basic_rnn_cell/bias": [2],
        }

    def test_initializers_as_tf(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2, 3, 4])
        tf.nn.dynamic_rnn(rnn_cell.GRUCell(3), x, dtype=tf.float32)
        sess.run(tf.global_variables_initializer())
        variables = tf.global_variables()
        v = {w.op.name: np.asarray(a) for w, a in zip(variables, sess.run(variables))}
        np.testing.assert_array_equal(v["rnn/gru_cell/gates/bias"], np.ones(6))
        np.testing.assert_array_equal(v["rnn/gru_cell/candidate/bias"], np.zeros(3))
        limit = np.sqrt(6 / (7 + 6))  # Glorot uniform
        k = v["rnn/gru_cell/gates/kernel"]
        assert np.abs(k).max() <= limit and k.std() > 0.1 * limit

    def test_same_scope_twice_collides_as_tf(self) -> None:
        x = tf.placeholder(tf.float32, [2, 3, 4])
        tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)
        with pytest.raises(ValueError, match="rnn/basic_lstm_cell/kernel already exists"):
            tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(5), x, dtype=tf.float32)

    def test_calling_the_cell_again_shares_variables(self) -> None:
        cell = rnn_cell.BasicLSTMCell(3)
        x = tf.placeholder(tf.float32, [2, 3, 4])
        tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope="again")
        assert len(tf.global_variables()) == 2 and len(cell.trainable_variables) == 2

    def test_contrib_aliases(self) -> None:
        assert tf.contrib.rnn.BasicLSTMCell is rnn_cell.BasicLSTMCell
        assert tf.contrib.rnn.LSTMStateTuple is rnn_cell.LSTMStateTuple
        assert tf.contrib.rnn.static_rnn is tf.nn.static_rnn


class TestDynamicRNN:
    def test_lstm_matches_numpy_with_lengths(self, sess: tf.Session) -> None:
        xv = known([3, 5, 2], 7)
        lv = np.array([5, 2, 0], np.int32)
        x = tf.placeholder(tf.float32, [None, 5, 2])
        lengths = tf.placeholder(tf.int32, [None])
        out, st = tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(4), x, sequence_length=lengths, dtype=tf.float32)
        assert out.shape.as_list() == [None, 5, 4]
        assert isinstance(st, rnn_cell.LSTMStateTuple) and st.h.shape.as_list() == [None, 4]
        types = [op.type for op in tf.get_default_graph().get_operations()]
        assert types.count("Scan") == 1 and "While" not in types
        w = assign_known(sess)
        got_out, got_st = val(sess, (out, st), {x: xv, lengths: lv})
        want_out, want_c, want_h = np_lstm(xv, lv, w["rnn/basic_lstm_cell/kernel"], w["rnn/basic_lstm_cell/bias"])
        np.testing.assert_allclose(got_out, want_out, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_st[0], want_c, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_st[1], want_h, rtol=1e-5, atol=1e-6)
        assert not got_out[1, 2:].any() and not got_out[2].any()

    def test_time_major_and_static_rnn_agree(self, sess: tf.Session) -> None:
        xv = known([4, 2, 3], 1)  # [T, B, D]
        x = tf.constant(xv)
        cell = rnn_cell.GRUCell(3)
        h0 = tf.constant(known([2, 3], 5))
        out_d, st_d = tf.nn.dynamic_rnn(cell, x, initial_state=h0, time_major=True)
        out_s, st_s = tf.nn.static_rnn(cell, tf.unstack(x), initial_state=h0)
        assign_known(sess)
        od, sd, os_, ss = val(sess, (out_d, st_d, out_s, st_s))
        np.testing.assert_allclose(od, np.stack(os_), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(sd, ss, rtol=1e-5, atol=1e-6)

    def test_bidirectional_backward_reads_reversed_within_length(self, sess: tf.Session) -> None:
        xv = known([2, 4, 2], 3)
        lv = np.array([4, 2], np.int32)
        cell_bw = rnn_cell.BasicRNNCell(2)
        (_, o_bw), (_, s_bw) = tf.nn.bidirectional_dynamic_rnn(
            rnn_cell.BasicRNNCell(2), cell_bw, tf.constant(xv), sequence_length=tf.constant(lv), dtype=tf.float32)
        w = assign_known(sess)
        k, b = w["bidirectional_rnn/bw/basic_rnn_cell/kernel"], w["bidirectional_rnn/bw/basic_rnn_cell/bias"]
        got_o, got_s = val(sess, (o_bw, s_bw))
        for row in range(2):
            h = np.zeros(2, np.float32)
            outs = np.zeros((4, 2), np.float32)
            for t in reversed(range(lv[row])):
                h = np.tanh(np.concatenate([xv[row, t], h]) @ k + b)
                outs[t] = h
            np.testing.assert_allclose(got_o[row], outs, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(got_s[row], h, rtol=1e-5, atol=1e-6)

    def test_bidirectional_time_major_agrees(self, sess: tf.Session) -> None:
        xv = known([2, 4, 2], 3)
        lens = tf.constant([3, 1])
        fw, bw = rnn_cell.GRUCell(2), rnn_cell.GRUCell(2)
        (a_fw, a_bw), _ = tf.nn.bidirectional_dynamic_rnn(fw, bw, tf.constant(xv), sequence_length=lens,
                                                          dtype=tf.float32)
        (b_fw, b_bw), _ = tf.nn.bidirectional_dynamic_rnn(fw, bw, tf.constant(xv.transpose(1, 0, 2)),
                                                          sequence_length=lens, dtype=tf.float32,
                                                          time_major=True, scope="tm")
        assert len(tf.global_variables()) == 8
        assign_known(sess)
        af, ab, bf, bb = val(sess, (a_fw, a_bw, b_fw, b_bw))
        np.testing.assert_allclose(af, bf.transpose(1, 0, 2), rtol=1e-6)
        np.testing.assert_allclose(ab, bb.transpose(1, 0, 2), rtol=1e-6)
        assert not ab[1, 1:].any()

    def test_gradients_match_a_hand_written_scan(self, sess: tf.Session) -> None:
        xv = known([2, 3, 2], 2)
        out, _ = tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), tf.constant(xv), dtype=tf.float32)
        loss = tf.reduce_sum(tf.square(out))
        grads = tf.gradients(loss, tf.trainable_variables())
        w = assign_known(sess)

        def ref(kernel: Any, bias: Any) -> Any:
            def step(carry: Any, xt: Any) -> Any:
                c, h = carry
                i, j, f, o = jnp.split(jnp.concatenate([xt, h], 1) @ kernel + bias, 4, axis=1)
                c = c * jax.nn.sigmoid(f + 1.0) + jax.nn.sigmoid(i) * jnp.tanh(j)
                h = jnp.tanh(c) * jax.nn.sigmoid(o)
                return (c, h), h

            zeros = jnp.zeros((2, 3))
            _, hs = jax.lax.scan(step, (zeros, zeros), jnp.swapaxes(xv, 0, 1))
            return jnp.sum(hs ** 2)

        want = jax.grad(ref, argnums=(0, 1))(w["rnn/basic_lstm_cell/kernel"], w["rnn/basic_lstm_cell/bias"])
        got = val(sess, grads)
        for g, wg in zip(got, want):
            np.testing.assert_allclose(g, wg, rtol=1e-4, atol=1e-6)

    def test_training_lowers_the_loss(self, sess: tf.Session) -> None:
        rng = np.random.default_rng(0)
        xv = rng.normal(size=(4, 5, 3)).astype(np.float32)
        yv = rng.normal(size=(4, 2)).astype(np.float32)
        _, st = tf.nn.dynamic_rnn(rnn_cell.LSTMCell(4, num_proj=2), tf.constant(xv), dtype=tf.float32)
        loss = tf.reduce_mean(tf.square(st.h - yv))
        train = tf.train.AdamOptimizer(0.05).minimize(loss)
        sess.run(tf.global_variables_initializer())
        first = float(np.asarray(sess.run(loss)))
        for _ in range(30):
            sess.run(train)
        assert float(np.asarray(sess.run(loss))) < 0.5 * first

    def test_dropout_wrapper_keep_prob_placeholder(self, sess: tf.Session) -> None:
        keep = tf.placeholder_with_default(1.0, [])
        cell = rnn_cell.DropoutWrapper(rnn_cell.BasicRNNCell(50), output_keep_prob=keep, seed=3)
        out, _ = tf.nn.dynamic_rnn(cell, tf.ones([2, 3, 4]), dtype=tf.float32)
        assign_known(sess)
        full = val(sess, out)
        assert np.count_nonzero(full == 0) == 0
        dropped = val(sess, out, {keep: 0.5})
        zeros = dropped == 0
        assert 0.2 < zeros.mean() < 0.8
        assert not np.array_equal(zeros[:, 0], zeros[:, 1])  # a new mask at each step
        np.testing.assert_allclose(dropped[~zeros], 2 * full[~zeros], rtol=1e-5)

    def test_multi_cell_concat_state(self, sess: tf.Session) -> None:
        cell = rnn_cell.MultiRNNCell([rnn_cell.BasicRNNCell(2), rnn_cell.GRUCell(3)], state_is_tuple=False)
        assert cell.state_size == 5 and cell.output_size == 3
        out, st = tf.nn.dynamic_rnn(cell, tf.ones([2, 3, 4]), dtype=tf.float32)
        assert st.shape.as_list() == [2, 5] and out.shape.as_list() == [2, 3, 3]
        assign_known(sess)
        o, s = val(sess, (out, st))
        np.testing.assert_allclose(o[:, -1], s[:, 2:], rtol=1e-6)

    def test_device_wrapper_places_the_cell(self) -> None:
        cell = rnn_cell.DeviceWrapper(rnn_cell.GRUCell(2), "/cpu:0")
        out, st = tf.nn.dynamic_rnn(cell, tf.ones([1, 2, 3]), dtype=tf.float32)
        assert st.shape.as_list() == [1, 2] and cell.output_size == 2
        matmuls = [op for op in tf.get_default_graph().get_operations() if op.type == "MatMul"]
        assert matmuls and all("cpu" in op.device.lower() for op in matmuls)

    def test_eager_dynamic_rnn(self) -> None:
        with tf.EagerSession():
            cell = rnn_cell.BasicRNNCell(2)
            out, st = tf.nn.dynamic_rnn(cell, tf.constant(known([1, 3, 2], 0)), dtype=tf.float32)
            assert tuple(out.shape) == (1, 3, 2)
            np.testing.assert_allclose(np.asarray(out)[:, -1], np.asarray(st), rtol=1e-6)


class TestOtherPaths:
    def test_graph_function_grad_and_vmap(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2, 4, 3])
        out, _ = tf.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(4), x, dtype=tf.float32)
        loss = tf.reduce_sum(out)
        f = tf.graph_function(loss, [x])
        assign_known(sess)
        xv = known([2, 4, 3], 4)
        vs = f.variables(sess)
        np.testing.assert_allclose(float(f(vs, xv)), float(np.asarray(sess.run(loss, {x: xv}))), rtol=1e-5)
        g = jax.grad(lambda v: f(v, xv))(vs)
        assert g["rnn/basic_lstm_cell/kernel"].shape == (7, 16)
        both = jax.vmap(f, in_axes=(None, 0))(vs, np.stack([xv, -xv]))
        np.testing.assert_allclose(float(both[1]), float(f(vs, -xv)), rtol=1e-5)

    def test_saver_round_trip_by_tf_names(self, sess: tf.Session, tmp_path: Any) -> None:
        cell = rnn_cell.GRUCell(3)
        out, _ = tf.nn.dynamic_rnn(cell, tf.ones([1, 2, 2]), dtype=tf.float32)
        saver = tf.train.Saver()
        want = assign_known(sess)
        path = saver.save(sess, str(tmp_path / "model"))
        sess.run(tf.global_variables_initializer())
        saver.restore(sess, path)
        variables = tf.global_variables()
        for v, got in zip(variables, sess.run(variables)):
            np.testing.assert_array_equal(np.asarray(got), want[v.op.name])


class TestErrors:
    def test_dtype_or_initial_state_required(self) -> None:
        with pytest.raises(ValueError, match="dtype"):
            tf.nn.dynamic_rnn(rnn_cell.BasicRNNCell(2), tf.ones([1, 2, 3]))

    def test_sequence_length_must_be_a_vector(self) -> None:
        with pytest.raises(ValueError, match="sequence_length must be a vector"):
            tf.nn.dynamic_rnn(rnn_cell.BasicRNNCell(2), tf.ones([1, 2, 3]), sequence_length=[[2]],
                              dtype=tf.float32)

    def test_unknown_depth(self) -> None:
        x = tf.placeholder(tf.float32, [1, 2, None])
        with pytest.raises(ValueError, match="depth of inputs"):
            tf.nn.dynamic_rnn(rnn_cell.BasicRNNCell(2), x, dtype=tf.float32)

    def test_not_a_cell(self) -> None:
        with pytest.raises(TypeError, match="not an RNNCell"):
            tf.nn.dynamic_rnn(lambda x, s: (x, s), tf.ones([1, 2, 3]), dtype=tf.float32)

    def test_integer_inputs(self) -> None:
        with pytest.raises(ValueError, match="floating point"):
            rnn_cell.BasicRNNCell(2)(tf.ones([1, 3], tf.int32), tf.zeros([1, 2], tf.int32))

    def test_static_rnn_needs_a_list(self) -> None:
        with pytest.raises(TypeError, match="sequence"):
            tf.nn.static_rnn(rnn_cell.BasicRNNCell(2), tf.ones([2, 1, 3]), dtype=tf.float32)
        with pytest.raises(ValueError, match="empty"):
            tf.nn.static_rnn(rnn_cell.BasicRNNCell(2), [], dtype=tf.float32)

    def test_unsupported_options_say_so(self) -> None:
        with pytest.raises(ValueError, match="variational_recurrent=True, dtype must be provided"):
            rnn_cell.DropoutWrapper(rnn_cell.GRUCell(2), variational_recurrent=True)
        with pytest.raises(ValueError, match="keep_prob must be between 0 and 1"):
            rnn_cell.DropoutWrapper(rnn_cell.GRUCell(2), input_keep_prob=1.5)
