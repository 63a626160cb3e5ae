"""jaxsess.keras recurrent layers, masks, shape layers and preprocessing.

Numbers and weight names are pinned against real TF in the corpus (``v40_*``);
these tests check the math against NumPy, the lowering, dropout, errors and the
data helpers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import keras
from jaxsess._tf1.keras._layers_core import input_mask
from jaxsess.keras import backend as K

L = keras.layers


@pytest.fixture(autouse=True)
def _fresh_keras() -> None:
    K.clear_session()


def _hard_sigmoid(x: np.ndarray) -> np.ndarray:
    return np.clip(0.2 * x + 0.5, 0.0, 1.0)


def _lstm_numpy(x: np.ndarray, k: np.ndarray, rk: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    u = rk.shape[0]
    h = np.zeros((x.shape[0], u), np.float32)
    c = np.zeros_like(h)
    outs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ k + h @ rk + b
        i, f, g, o = (z[:, j * u:(j + 1) * u] for j in range(4))
        c = _hard_sigmoid(f) * c + _hard_sigmoid(i) * np.tanh(g)
        h = _hard_sigmoid(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs, 1), c


def _set_random_weights(layer: Any, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.RandomState(seed)
    ws = [rng.uniform(-0.5, 0.5, w.shape.as_list()).astype(np.float32) for w in layer.weights]
    layer.set_weights(ws)
    return ws


def test_lstm_matches_a_numpy_reference_and_is_one_scan_op() -> None:
    x = keras.Input((4, 3))
    layer = L.LSTM(2, return_sequences=True, return_state=True)
    seq, h, c = layer(x)
    k, rk, b = _set_random_weights(layer)
    x_val = np.random.RandomState(1).uniform(-1, 1, (2, 4, 3)).astype(np.float32)
    got_seq, got_h, got_c = K.get_session().run([seq, h, c], {x: x_val})
    want_seq, want_c = _lstm_numpy(x_val, k, rk, b)
    np.testing.assert_allclose(got_seq, want_seq, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_h, want_seq[:, -1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_c, want_c, rtol=1e-5, atol=1e-6)
    ops = [op.type for op in tf.get_default_graph().get_operations() if op.name.startswith("lstm/")]
    assert ops.count("Scan") == 1


def test_initial_state_and_a_user_cell() -> None:
    class MinimalRNNCell(L.Layer):  # the cell of Keras' RNN documentation
        def __init__(self, units: int, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, input_shape: Any) -> None:
            self.kernel = self.add_weight("kernel", [int(input_shape[-1]), self.units], initializer="ones")
            self.built = True

        def call(self, inputs: Any, states: Any) -> Any:
            out = tf.matmul(inputs, self.kernel) + states[0]
            return out, [out]

    x = keras.Input((3, 2))
    h0 = keras.Input((1,))
    y = L.RNN(MinimalRNNCell(1), return_sequences=True)(x, initial_state=[h0])
    got = K.get_session().run(y, {x: np.ones((1, 3, 2), np.float32), h0: [[10.0]]})
    np.testing.assert_allclose(got[0, :, 0], [12.0, 14.0, 16.0])


def test_dropout_acts_only_in_the_training_phase() -> None:
    x = keras.Input((5, 4))
    layer = L.GRU(3, dropout=0.5, recurrent_dropout=0.5)
    y_train = layer(x, training=True)
    y_test = L.GRU(3, dropout=0.5, recurrent_dropout=0.5)(x)
    sess = K.get_session()
    x_val = np.ones((8, 5, 4), np.float32)
    a, b = sess.run(y_train, {x: x_val}), sess.run(y_train, {x: x_val})
    assert not np.allclose(a, b)  # fresh masks each run
    np.testing.assert_array_equal(sess.run(y_test, {x: x_val}), sess.run(y_test, {x: x_val}))


def test_model_with_dropout_trains_and_predicts_deterministically() -> None:
    model = keras.Sequential([L.LSTM(4, dropout=0.2, recurrent_dropout=0.2, input_shape=(3, 2)), L.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    x = np.random.RandomState(0).rand(8, 3, 2).astype(np.float32)
    hist = model.fit(x, x.sum(axis=(1, 2))[:, None], epochs=2, batch_size=4, verbose=0)
    assert len(hist.history["loss"]) == 2 and np.isfinite(hist.history["loss"]).all()
    np.testing.assert_array_equal(model.predict(x), model.predict(x))


def test_masks_flow_through_dense_and_time_distributed_but_not_flatten() -> None:
    ids = keras.Input((3,), dtype="int32")
    e = L.Embedding(4, 2, mask_zero=True)(ids)
    assert input_mask(e) is not None
    assert input_mask(L.TimeDistributed(L.Dense(2))(e)) is not None
    assert input_mask(L.Flatten()(e)) is None
    assert input_mask(L.LSTM(2)(e)) is None
    assert input_mask(L.LSTM(2, return_sequences=True)(e)) is not None


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: L.LSTM(2, stateful=True), NotImplementedError, "stateful"),
        (lambda: L.Bidirectional(L.LSTM(2), merge_mode="max"), ValueError, "Invalid merge mode"),
        (lambda: L.Bidirectional(L.Dense(2)), ValueError, "RNN"),
        (lambda: L.TimeDistributed(object()), ValueError, "TimeDistributed"),
        (lambda: L.Permute((1, 3)), ValueError, "dims"),
        (lambda: L.SimpleRNN(0), ValueError, "units"),
        (lambda: L.UpSampling2D(interpolation="bilinear"), NotImplementedError, "nearest"),
    ],
)
def test_bad_arguments_raise(make: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        make()


def test_bad_inputs_raise_naming_the_layer() -> None:
    with pytest.raises(ValueError, match="simple_rnn.*ndim=3"):
        L.SimpleRNN(2)(keras.Input((3,)))
    x = keras.Input((2, 3))
    with pytest.raises(ValueError, match="expects 2 initial state"):
        L.LSTM(2)(x, initial_state=[keras.Input((2,))])
    with pytest.raises(ValueError, match="last dimension"):
        L.GRU(2)(tf.placeholder(tf.float32, [None, 2, None]))


def test_pad_sequences_and_errors() -> None:
    pad = keras.preprocessing.sequence.pad_sequences
    np.testing.assert_array_equal(pad([[1, 2, 3], [4]], maxlen=2), [[2, 3], [0, 4]])
    np.testing.assert_array_equal(pad([[1, 2, 3], [4]], maxlen=2, padding="post", truncating="post"),
                                  [[1, 2], [4, 0]])
    assert pad([[[1, 2]], [[3, 4], [5, 6]]]).shape == (2, 2, 2)
    with pytest.raises(ValueError, match="Padding type"):
        pad([[1]], padding="middle")
    with pytest.raises(ValueError, match="Truncating type"):
        pad([[1]], truncating="middle")
    with pytest.raises(ValueError, match="dtype=object"):
        pad([["a"]], value="x")


def test_tokenizer_ranks_words_and_maps_unknown_words_to_the_oov_token() -> None:
    tok = keras.preprocessing.text.Tokenizer(num_words=3, oov_token="?")
    tok.fit_on_texts(["b a b", "c b a"])
    assert tok.word_index == {"?": 1, "b": 2, "a": 3, "c": 4}
    assert tok.texts_to_sequences(["a b c d"]) == [[1, 2, 1, 1]]
    with pytest.raises(ValueError, match="Unknown vectorization mode"):
        tok.texts_to_matrix(["a"], mode="bits")
    with pytest.raises(ValueError, match="num_words"):
        keras.preprocessing.text.Tokenizer().sequences_to_matrix([[1]])


def test_imdb_reads_only_the_keras_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="does not download"):
        keras.datasets.imdb.load_data()
    (tmp_path / "datasets").mkdir()
    seqs = np.empty(3, dtype=object)
    seqs[:] = [[1, 2], [3, 4, 5, 6], [7]]
    np.savez(tmp_path / "datasets" / "imdb.npz", x_train=seqs, y_train=np.array([0, 1, 1]), x_test=seqs,
             y_test=np.array([1, 0, 0]))
    (x_train, y_train), (x_test, _) = keras.datasets.imdb.load_data(num_words=8, maxlen=4)
    assert len(x_train) == 2 and len(x_test) == 2  # the 5-id review is dropped
    assert all(s[0] == 1 and max(s) < 8 for s in x_train)  # start_char, then ids + 3 or oov_char 2
    assert sorted(map(len, x_train)) == [2, 3]
    assert set(y_train.tolist()) <= {0, 1}


def test_sample_and_class_weights_scale_the_loss_and_bad_ones_raise() -> None:
    model = keras.Sequential([L.Dense(2, activation="softmax", input_shape=(3,), kernel_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="sparse_categorical_crossentropy")
    x = np.ones((4, 3), np.float32)
    y = np.array([0, 1, 1, 0])
    base = model.evaluate(x, y, verbose=0)
    np.testing.assert_allclose(model.evaluate(x, y, sample_weight=np.array([1.0, 2.0, 0.0, 3.0]), verbose=0),
                               base * 6 / 4, rtol=1e-6)
    hist = model.fit(x, y, class_weight={0: 1.0, 1: 3.0}, batch_size=4, verbose=0)
    np.testing.assert_allclose(hist.history["loss"], [base * 8 / 4], rtol=1e-6)
    with pytest.raises(ValueError, match="sample_weight"):
        model.fit(x, y, sample_weight=np.ones(3), verbose=0)
    with pytest.raises(ValueError, match=r"class_weight.*\[1\]"):
        model.fit(x, y, class_weight={0: 1.0}, verbose=0)


def test_crossentropy_uses_the_logits_of_keras_activations() -> None:
    logits = tf.constant([[2.0, -1.0]])
    target = tf.constant([[1.0, 0.0]])
    by_keras = keras.losses.categorical_crossentropy(target, keras.activations.sigmoid(logits))
    by_tf = keras.losses.categorical_crossentropy(target, tf.sigmoid(logits))
    with tf.Session() as sess:
        a, b = sess.run([by_keras, by_tf])
    np.testing.assert_allclose(a, [-np.log(np.exp(2.0) / (np.exp(2.0) + np.exp(-1.0)))], rtol=1e-6)  # softmax CE
    assert not np.allclose(a, b)


def test_recurrent_and_shape_layers_run_at_once_in_an_eager_session() -> None:
    x = np.random.RandomState(0).rand(2, 3, 2).astype(np.float32)
    with tf.EagerSession():
        layer = L.LSTM(2, return_sequences=True, kernel_initializer="ones", recurrent_initializer="zeros")
        y = np.asarray(layer(x))
        assert y.shape == (2, 3, 2)
        assert np.asarray(L.Bidirectional(L.GRU(2))(x)).shape == (2, 4)
        assert np.asarray(L.TimeDistributed(L.Dense(4))(x)).shape == (2, 3, 4)
        np.testing.assert_array_equal(np.asarray(L.UpSampling1D(2)(x))[:, ::2], x)
    want, _ = _lstm_numpy(x, np.ones((2, 8), np.float32), np.zeros((2, 8), np.float32),
                          np.array([0, 0, 1, 1, 0, 0, 0, 0], np.float32))
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_alpha_dropout_maps_entries_to_the_two_selu_values_in_training_only() -> None:
    x = keras.Input((200,))
    y_train = L.AlphaDropout(0.3)(x, training=True)
    y_test = L.AlphaDropout(0.3)(x)
    x_val = np.full((1, 200), 0.5, np.float32)
    sess = K.get_session()
    got = sorted(set(np.round(sess.run(y_train, {x: x_val}).ravel(), 5).tolist()))
    np.testing.assert_allclose(got, [-1.05955, 0.88457], atol=1e-5)  # the values TF 2.21 gives
    np.testing.assert_array_equal(sess.run(y_test, {x: x_val}), x_val)
