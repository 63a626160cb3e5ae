"""jaxsess.keras: Keras 2 in TF1 graph mode (layers, models, backend, training loop).

The behaviours pinned against real TF live in the corpus (``v30_*``); these
tests cover the bookkeeping, errors and edge cases.
"""

from __future__ import annotations

import re
from pathlib import Path

import h5py
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import keras
from jaxsess.keras import backend as K


@pytest.fixture(autouse=True)
def _fresh_keras() -> None:
    K.clear_session()


def test_layer_names_count_per_graph_and_restart_on_a_new_graph() -> None:
    assert [keras.layers.Dense(1).name for _ in range(3)] == ["dense", "dense_1", "dense_2"]
    assert keras.layers.Dense(1, name="head").name == "head"
    with tf.Graph().as_default():
        assert keras.layers.Dense(1).name == "dense"
    K.clear_session()
    assert keras.layers.Dense(1).name == "dense"


def test_variables_live_in_the_layer_name_scope_and_ignore_variable_scopes() -> None:
    x = tf.placeholder(tf.float32, [None, 3])
    with tf.variable_scope("vs", reuse=True):
        layer = keras.layers.Dense(2)
        y = layer(x)
    assert [v.name for v in layer.weights] == ["vs/dense/kernel:0", "vs/dense/bias:0"]
    assert y.name == "vs/dense/BiasAdd:0"
    assert [v.name for v in tf.trainable_variables()] == ["vs/dense/kernel:0", "vs/dense/bias:0"]


def test_get_session_initialises_keras_variables_once() -> None:
    x = tf.placeholder(tf.float32, [None, 2])
    layer = keras.layers.Dense(1, kernel_initializer="ones", bias_initializer=keras.initializers.Constant(0.5))
    y = layer(x)
    sess = K.get_session()
    np.testing.assert_allclose(sess.run(y, {x: [[1.0, 2.0]]}), [[3.5]])
    layer.set_weights([np.full((2, 1), 2.0, np.float32), np.zeros(1, np.float32)])
    assert K.get_session() is sess  # no re-initialisation: the values set stay
    np.testing.assert_allclose(sess.run(y, {x: [[1.0, 2.0]]}), [[6.0]])
    np.testing.assert_allclose(layer.get_weights()[0], np.full((2, 1), 2.0))


def test_set_weights_checks_count_and_shapes() -> None:
    layer = keras.layers.Dense(2)
    layer(tf.placeholder(tf.float32, [None, 3]))
    with pytest.raises(ValueError, match="expecting 2 weights"):
        layer.set_weights([np.zeros((3, 2))])
    with pytest.raises(ValueError, match=r"not compatible with provided weight shape \(2, 3\)"):
        layer.set_weights([np.zeros((2, 3)), np.zeros(2)])
    assert [w.shape for w in layer.get_weights()] == [(3, 2), (2,)]


def test_dropout_follows_the_learning_phase() -> None:
    x = tf.placeholder(tf.float32, [None, 100])
    y = keras.layers.Dropout(0.5)(x)
    sess = K.get_session()
    ones = np.ones((4, 100), np.float32)
    np.testing.assert_array_equal(sess.run(y, {x: ones}), ones)
    trained = sess.run(y, {x: ones, K.learning_phase(): True})
    assert set(np.unique(trained)) <= {0.0, 2.0} and (trained == 0).any()
    K.set_learning_phase(1)
    fixed = keras.layers.Dropout(0.5)(x)  # a Python learning phase: no cond
    assert "cond" not in fixed.name
    assert (sess.run(fixed, {x: ones}) == 0).any()
    with pytest.raises(ValueError, match="0 or 1"):
        K.set_learning_phase(2)


def test_batch_norm_keeps_updates_on_the_layer_and_fit_runs_them() -> None:
    inp = keras.Input(shape=(2,))
    bn = keras.layers.BatchNormalization(momentum=0.5)
    model = keras.Model(inp, keras.layers.Dense(1)(bn(inp)))
    assert len(bn.updates) == 2 and len(model.updates) == 2
    assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == []
    model.compile("sgd", "mse")
    x = np.array([[1.0, 2.0], [3.0, 6.0]], np.float32)
    model.fit(x, np.zeros((2, 1)), batch_size=2, verbose=0)
    np.testing.assert_allclose(K.get_value(bn.moving_mean), [1.0, 2.0], rtol=1e-6)  # 0.5 * 0 + 0.5 * [2, 4]


def test_functional_model_structure_and_errors() -> None:
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input(shape=(3,))
    h = keras.layers.Add()([a, b])
    out = keras.layers.Dense(2, name="out")(h)
    model = keras.Model([a, b], out)
    assert [layer.name for layer in model.layers] == ["a", "input_1", "add", "out"]
    assert model.input == [a, b] and model.output is out
    assert model.get_layer("out").units == 2
    with pytest.raises(ValueError, match="No such layer"):
        model.get_layer("nope")
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(a, keras.layers.Dense(1)(tf.placeholder(tf.float32, [None, 3])))
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(a, out)
    res = model.predict([np.ones((2, 3)), np.ones((2, 3))])
    assert res.shape == (2, 2) and res.dtype == np.float32


def test_sequential_without_input_shape_builds_from_data() -> None:
    model = keras.Sequential([keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="not yet been built"):
        model.summary()
    model.compile(keras.optimizers.SGD(0.01), "mse")
    hist = model.fit(np.ones((4, 5), np.float32), np.zeros(4, np.float32), epochs=2, verbose=0)
    assert sorted(hist.history) == ["loss"] and len(hist.history["loss"]) == 2 and hist.epoch == [0, 1]
    assert model.input.shape.as_list() == [None, 5]
    assert [v.name for v in model.weights][0] == "sequential/dense/kernel:0"
    assert isinstance(model.train_on_batch(np.ones((2, 5)), np.zeros(2)), np.float32)


def test_summary_prints_the_layer_table(capsys: pytest.CaptureFixture[str]) -> None:
    model = keras.Sequential([keras.layers.Dense(4, input_shape=(3,)), keras.layers.Dense(2)])
    model.summary()
    text = capsys.readouterr().out.splitlines()
    assert text[0] == 'Model: "sequential"'
    assert text[2].rstrip() == " Layer (type)                Output Shape              Param #"
    assert text[4].rstrip() == " dense (Dense)               (None, 4)                 16"
    assert "Total params: 26 (104.00 Byte)" in text


def test_compile_and_fit_errors() -> None:
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    with pytest.raises(RuntimeError, match="compile"):
        model.fit(np.zeros((2, 2)), np.zeros((2, 1)))
    with pytest.raises(ValueError, match="loss"):
        model.compile("adam")
    with pytest.raises(ValueError, match="optimizer identifier"):
        model.compile("nadamax", "mse")
    with pytest.raises(ValueError, match="Unknown loss"):
        model.compile("adam", "msee")
    model.compile("adam", "mse")
    with pytest.raises(ValueError, match="same number of samples"):
        model.fit(np.zeros((3, 2)), np.zeros((2, 1)), verbose=0)


def test_callbacks_see_each_epoch_and_batch() -> None:
    seen: list[tuple[str, int]] = []
    cb = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(("epoch", e)),
                                        on_batch_end=lambda b, logs: seen.append(("batch", b)))
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile("sgd", "mse", metrics=["mae"])
    hist = model.fit(np.ones((3, 2)), np.ones((3, 1)), batch_size=2, epochs=2, verbose=0, callbacks=[cb])
    assert seen == [("batch", 0), ("batch", 1), ("epoch", 0), ("batch", 0), ("batch", 1), ("epoch", 1)]
    assert sorted(hist.history) == ["loss", "mae"]
    assert model.metrics_names == ["loss", "mae"]


def test_regularizer_losses_stay_on_the_layer_and_enter_the_total_loss() -> None:
    layer = keras.layers.Dense(1, kernel_initializer="ones", kernel_regularizer=keras.regularizers.l2(0.5),
                               input_shape=(2,))
    model = keras.Sequential([layer])
    assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == []
    np.testing.assert_allclose(K.eval(model.losses[0]), 1.0)  # 0.5 * (1 + 1)
    model.compile("sgd", "mse")
    np.testing.assert_allclose(model.evaluate(np.zeros((2, 2)), np.zeros((2, 1)), verbose=0), 1.0)


def test_lookups_by_name() -> None:
    assert keras.activations.get(None) is keras.activations.linear
    assert keras.activations.get("relu") is keras.activations.relu
    with pytest.raises(ValueError, match="Unknown activation"):
        keras.activations.get("relux")
    assert isinstance(keras.initializers.get("he_normal"), keras.initializers.VarianceScaling)
    with pytest.raises(ValueError, match="Unknown initializer"):
        keras.initializers.get("hee")
    np.testing.assert_array_equal(keras.utils.to_categorical([[1], [0]]), [[0.0, 1.0], [1.0, 0.0]])


def test_backend_function_and_values() -> None:
    p = K.placeholder(shape=(None, 2))
    f = K.function([p], K.sum(p))
    assert f([np.ones((3, 2), np.float32)]) == 6.0
    with pytest.raises(ValueError, match="expects 1 inputs"):
        K.function([p], [p])([])
    v = K.variable([1.0, 2.0])
    K.batch_set_value([(v, [3.0, 4.0])])
    np.testing.assert_array_equal(K.batch_get_value([v])[0], [3.0, 4.0])
    assert K.int_shape(p) == (None, 2) and K.ndim(p) == 2 and K.dtype(v) == "float32"
    assert K.count_params(v) == 2


def test_calling_a_model_on_a_new_tensor_shares_its_weights() -> None:
    inp = keras.Input(shape=(2,))
    model = keras.Model(inp, keras.layers.Dense(1, kernel_initializer="ones")(inp))
    n_vars = len(tf.global_variables())
    other = tf.placeholder(tf.float32, [None, 2])
    out = model(other)
    assert len(tf.global_variables()) == n_vars
    assert out.name.startswith("model/")
    np.testing.assert_allclose(K.get_session().run(out, {other: [[1.0, 2.0]]}), [[3.0]])


def test_mnist_reads_keras_cache_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="does not download"):
        keras.datasets.mnist.load_data()
    (tmp_path / "datasets").mkdir()
    arrays = {"x_train": np.zeros((3, 28, 28), np.uint8), "y_train": np.arange(3, dtype=np.uint8),
              "x_test": np.ones((2, 28, 28), np.uint8), "y_test": np.arange(2, dtype=np.uint8)}
    np.savez(tmp_path / "datasets" / "mnist.npz", **arrays)
    (x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
    assert x_train.shape == (3, 28, 28) and y_test.tolist() == [0, 1] and x_test.dtype == np.uint8


class _Scale(keras.layers.Layer):
    def __init__(self, units: int, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape: tf.TensorShape) -> None:
        self.w = self.add_weight(name="w", shape=(input_shape[-1], self.units), initializer="ones")
        self.s = self.add_weight(name="s", shape=(), initializer=keras.initializers.Constant(2.0), trainable=False)

    def call(self, inputs: tf.Tensor, *args: object, **kwargs: object) -> tf.Tensor:
        return tf.matmul(inputs, self.w) * self.s


def test_a_subclassed_layer_trains_in_a_sequential_model() -> None:
    layer = _Scale(1, input_shape=(2,))
    model = keras.Sequential([layer])
    assert layer.name == "private__scale"
    assert [v.name for v in layer.trainable_weights] == [f"{layer.name}/w:0"]
    assert [v.name for v in layer.non_trainable_weights] == [f"{layer.name}/s:0"]
    np.testing.assert_allclose(model.predict(np.array([[1.0, 2.0]])), [[6.0]])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    model.fit(np.array([[1.0, 0.0]]), np.array([[0.0]]), verbose=0)
    # d(mean((2 w0)^2))/dw0 = 8 w0 = 8 at w0 = 1: w0 = 1 - 0.8; s stays (not trainable).
    np.testing.assert_allclose(layer.get_weights()[0], [[0.2], [1.0]], rtol=1e-6)
    assert layer.get_weights()[1] == 2.0


def test_validation_split_pop_and_shuffle(capsys: pytest.CaptureFixture[str]) -> None:
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(2,)), keras.layers.Dense(1)])
    model.pop()
    assert [x.name for x in model.layers] == ["dense"] and model.output.shape.as_list() == [None, 2]
    model.compile("sgd", "mse")
    hist = model.fit(np.ones((10, 2)), np.zeros((10, 2)), validation_split=0.2, batch_size=3, verbose=0)
    assert sorted(hist.history) == ["loss", "val_loss"]
    np.random.seed(0)
    shuffled = model.fit(np.ones((4, 2)), np.zeros((4, 2)), epochs=2, verbose=1, shuffle=True)
    assert len(shuffled.history["loss"]) == 2
    lines = capsys.readouterr().out.split("\n")
    assert lines[:2] == ["Train on 4 samples", "Epoch 1/2"]
    # the live bar's last frame (tests/test_keras_progress.py compares the whole bar with tf_keras');
    # Keras writes a value under 1e-3 as 5.3509e-04
    assert re.fullmatch(r"4/4 \[=+\] - \d+s \d+(us|ms|s)/sample - loss: \d\.\d{4}(e-\d\d)?", lines[2].rsplit("\r", 1)[-1])


def test_keras_uses_a_users_session_and_initialises_each_variable_once() -> None:
    x = tf.placeholder(tf.float32, [None, 2])
    layer = keras.layers.Dense(1, kernel_initializer="zeros")
    y = layer(x)
    other = tf.Session()
    K.set_session(other)
    assert K.get_session() is other
    np.testing.assert_allclose(other.run(y, {x: [[1.0, 2.0]]}), [[0.0]])  # initialised there
    with tf.Session() as sess:
        assert K.get_session() is sess  # the default session wins
        # As TF's Keras: a variable is checked once (marked initialised), so another session must initialise it.
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(y, {x: [[1.0, 2.0]]})
        sess.run(tf.global_variables_initializer())
        sess.run(layer.kernel.assign([[1.0], [1.0]]))
        K.get_session()
        np.testing.assert_allclose(sess.run(y, {x: [[1.0, 2.0]]}), [[3.0]])  # not re-initialised
    other.close()


def test_nested_list_inputs_are_one_array_and_missing_model_files() -> None:
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,), kernel_initializer="ones")])
    np.testing.assert_allclose(model.predict([[1.0, 2.0], [3.0, 4.0]]), [[3.0], [7.0]])
    np.testing.assert_allclose(model.predict([np.array([[1.0, 1.0]])]), [[2.0]])
    with pytest.raises(OSError, match="No file or directory found"):
        keras.models.load_model("no-such-model.h5")


def test_layers_run_at_once_in_an_eager_session() -> None:
    with tf.EagerSession():
        layer = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer=keras.initializers.Constant(0.5))
        np.testing.assert_allclose(np.asarray(layer(np.ones((1, 3), np.float32))), [[3.5, 3.5]])
        layer.set_weights([np.zeros((3, 2)), np.ones(2)])
        np.testing.assert_allclose(layer.get_weights()[1], [1.0, 1.0])
        np.testing.assert_allclose(np.asarray(layer(np.ones((1, 3), np.float32))), [[1.0, 1.0]])
        with pytest.raises(RuntimeError, match="EagerSession"):
            K.get_session()



def test_the_backend_session_closes_without_a_warning_when_collected() -> None:
    """The Keras backend's own session (TF never asks users to close it) is
    closed quietly when garbage-collected; a user's session warns."""
    import gc
    import warnings
    import weakref

    g = tf.Graph()
    with g.as_default():
        session = K.get_session()
    assert session._finalizer.peek()[2][1] is None  # the backend's: no warning label
    quiet = tf.Session(graph=tf.Graph())
    quiet._close_quietly_on_gc()
    registry = quiet._registry
    ref = weakref.ref(quiet)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        del quiet
        gc.collect()
    assert ref() is None
    assert registry.wait_closed(30.0)
    user = tf.Session(graph=tf.Graph())
    with pytest.warns(ResourceWarning, match="without close"):
        del user
        gc.collect()


FIXTURES = Path(__file__).parent / "fixtures"


def _h5_weights(path: Path, layer: str) -> list[np.ndarray]:
    with h5py.File(path, "r") as f:
        g = f["model_weights"][layer]
        return [np.asarray(g[n]) for n in g.attrs["weight_names"]]



def test_load_model_reads_a_file_written_by_tf_keras() -> None:
    # A functional model saved by tf_keras 2.21 (TF 2.21): two inputs, a layer shared by two
    # calls, two outputs, an l2 regularizer, SGD with momentum, per-output losses and weights.
    path = FIXTURES / "keras2_tf_functional.h5"
    model = keras.models.load_model(str(path))
    assert [layer.name for layer in model.layers] == ["a", "d", "b", "concatenate", "dense", "o1"]
    assert model.output_names == ["o1", "d"]
    assert model.metrics_names == ["loss", "o1_loss", "d_loss", "o1_accuracy"]
    assert isinstance(model.optimizer, keras.optimizers.SGD) and model.optimizer._momentum == pytest.approx(0.9)
    assert len(model.losses) == 1  # the shared layer's kernel regularizer, once, as TF
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    x2 = np.ones((3, 2), np.float32)
    kd, bd = _h5_weights(path, "d")
    k2, b2 = _h5_weights(path, "dense")
    ko, bo = _h5_weights(path, "o1")
    h = np.tanh(x @ kd + bd)
    o1 = 1 / (1 + np.exp(-(np.concatenate([h, x2], 1) @ ko + bo)))
    o2 = np.tanh((x @ k2 + b2) @ kd + bd)
    p = model.predict([x, x2])
    np.testing.assert_allclose(p[0], o1, rtol=1e-5)
    np.testing.assert_allclose(p[1], o2, rtol=1e-5)



def test_functional_json_round_trip_with_a_shared_layer_and_a_lambda() -> None:
    a = keras.Input((3,), name="a")
    shared = keras.layers.Dense(3, activation="relu", kernel_initializer="ones")
    h = shared(shared(a))
    scaled = keras.layers.Lambda(lambda t: t * 2.0 + 1.0)(h)
    out = keras.layers.Dense(1, name="out")(keras.layers.add([scaled, a]))
    model = keras.Model(a, out)
    clone = keras.models.model_from_json(model.to_json(), safe_mode=False)  # the lambda's bytecode: opted in
    clone.set_weights(model.get_weights())
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(clone.predict(x), model.predict(x), rtol=1e-6)
    config = model.get_config()
    shared_cfg = next(c for c in config["layers"] if c["name"] == shared.name)
    assert shared_cfg["inbound_nodes"] == [[["a", 0, 0, {}]], [[shared.name, 0, 0, {}]]]



def test_hdf5_weights_by_name_and_count_mismatch(tmp_path: Path) -> None:
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), name="first"),
                              keras.layers.Dense(1, name="second")])
    path = str(tmp_path / "w.h5")
    model.save_weights(path)
    other = keras.Sequential([keras.layers.Dense(1, input_shape=(3,), name="unrelated"),
                              keras.layers.Dense(2, name="first")])
    with pytest.raises(ValueError, match="Shape mismatch"):
        other.load_weights(path)
    # by name: only 'first' matches (its shapes differ: skipped), 'unrelated' is left alone
    before = other.get_weights()
    other.load_weights(path, by_name=True, skip_mismatch=True)
    for got, want in zip(other.get_weights(), before, strict=True):
        np.testing.assert_array_equal(got, want)
    small = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    with pytest.raises(ValueError, match="Layer count mismatch"):
        small.load_weights(path)



def test_custom_layer_needs_its_own_get_config() -> None:
    class Scale(keras.layers.Layer):
        def __init__(self, factor: float, **kwargs: object) -> None:
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, inputs: object) -> object:
            return inputs * self.factor  # type: ignore[operator]

    with pytest.raises(NotImplementedError, match="must override `get_config"):
        Scale(2.0).get_config()

    class Scaled(Scale):
        def get_config(self) -> dict[str, object]:
            return {**super(Scale, self).get_config(), "factor": self.factor}

    layer = Scaled(3.0, name="s")
    assert layer.get_config() == {"name": "s", "trainable": True, "dtype": "float32", "factor": 3.0}
    a = keras.Input((2,))
    model = keras.Model(a, layer(a))
    with pytest.raises(ValueError, match="Unknown layer: Scaled"):
        keras.models.model_from_json(model.to_json())
    clone = keras.models.model_from_json(model.to_json(), custom_objects={"Scaled": Scaled})
    np.testing.assert_allclose(clone.predict(np.ones((1, 2), np.float32)), [[3.0, 3.0]])



def test_model_saved_to_a_directory_reloads(tmp_path: Path) -> None:
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,), kernel_initializer="ones")])
    model.compile(keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    model.save(str(tmp_path / "saved"))
    restored = keras.models.load_model(str(tmp_path / "saved"))
    assert restored.metrics_names == ["loss", "mae"]
    assert K.get_value(restored.optimizer.lr) == pytest.approx(0.01)
    np.testing.assert_allclose(restored.predict(np.ones((1, 2))), [[2.0]])
    with pytest.raises(OSError, match="No file or directory found.*keras_metadata.pb"):
        keras.models.load_model(str(tmp_path))



def test_train_on_batch_adds_to_the_metric_totals_left_by_fit() -> None:
    # Keras v1's metrics are stateful: fit leaves its last epoch's totals, which the next
    # train_on_batch adds to (and then resets); the loss itself is the batch's.
    x = np.arange(8, dtype=np.float32).reshape(4, 2) / 8
    y = np.array([[0.0], [1.0], [1.0], [0.0]], np.float32)
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,), kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.0), "mse", metrics=["mae"])
    model.fit(x[:2], y[:2], batch_size=2, epochs=1, verbose=0)
    loss, mae = model.train_on_batch(x, y)
    assert mae == pytest.approx((0.5 * 2 + 0.5 * 4) / 6)  # all predictions 0: |y| means 0.5 and 0.5
    assert loss == pytest.approx(0.5)
    assert model.train_on_batch(x[:2], y[:2])[1] == pytest.approx(0.5)



def test_sgd_momentum_decay_follows_keras_formula() -> None:
    x = np.array([[1.0], [2.0]], np.float32)
    y = np.array([[1.0], [3.0]], np.float32)
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(1,), use_bias=False, kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(lr=0.1, momentum=0.9, decay=0.5), "mse")
    model.fit(x, y, batch_size=2, epochs=3, verbose=0, shuffle=False)
    w, v = 0.0, 0.0
    for step in range(3):
        g = np.mean(2 * (x[:, 0] * w - y[:, 0]) * x[:, 0])
        v = 0.9 * v - 0.1 / (1 + 0.5 * step) * g
        w += v
    np.testing.assert_allclose(model.get_weights()[0], [[w]], rtol=1e-5)
    assert K.get_value(model.optimizer.iterations) == 3



def test_generator_without_steps_is_refused() -> None:
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(1,))])
    model.compile("sgd", "mse")

    def gen():  # type: ignore[no-untyped-def]
        while True:
            yield np.ones((2, 1)), np.ones((2, 1))

    with pytest.raises(ValueError, match="steps_per_epoch=None"):
        model.fit(gen(), epochs=1, verbose=0)



def test_several_outputs_need_one_target_each() -> None:
    a = keras.Input((2,))
    model = keras.Model(a, [keras.layers.Dense(1, name="p")(a), keras.layers.Dense(1, name="q")(a)])
    with pytest.raises(ValueError, match="Unknown entries in loss dictionary"):
        model.compile("sgd", {"p": "mse", "r": "mse"})
    model.compile("sgd", {"p": "mse", "q": "mae"})
    with pytest.raises(ValueError, match="Expected to see 2 array"):
        model.fit(np.ones((2, 2)), np.ones((2, 1)), verbose=0)
    with pytest.raises(ValueError, match="No data provided for 'q'"):
        model.fit(np.ones((2, 2)), {"p": np.ones((2, 1))}, verbose=0)



def test_callbacks_csv_append_schedule_errors_and_sequence_epoch_end(tmp_path: Path) -> None:
    x = np.ones((4, 1), np.float32)
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(1,), kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    path = tmp_path / "log.csv"
    model.fit(x, x, epochs=1, verbose=0, callbacks=[keras.callbacks.CSVLogger(str(path))])
    model.fit(x, x, epochs=2, verbose=0, callbacks=[keras.callbacks.CSVLogger(str(path), append=True)])
    rows = path.read_text().splitlines()
    assert rows[0] == "epoch,loss,val_loss" and [r.split(",")[0] for r in rows[1:]] == ["0", "0", "1"]
    assert rows[1].endswith(",NA")
    with pytest.raises(ValueError, match="should be float"):
        model.fit(x, x, epochs=1, verbose=0, callbacks=[keras.callbacks.LearningRateScheduler(lambda e: "fast")])
    with pytest.raises(ValueError, match="factor >= 1.0"):
        keras.callbacks.ReduceLROnPlateau(factor=2.0)
    with pytest.raises(NotImplementedError, match="histogram_freq=0"):
        keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1)

    ends = []

    class Data(keras.utils.Sequence):
        def __len__(self) -> int:
            return 2

        def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
            return x[2 * i:2 * i + 2], x[2 * i:2 * i + 2]

        def on_epoch_end(self) -> None:
            ends.append(True)

    model.fit(Data(), epochs=3, verbose=0)
    assert len(ends) == 3



def test_batch_dot_refuses_the_batch_axis() -> None:
    a = K.constant(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="batch_dot over axis 0"):
        K.batch_dot(a, a, axes=0)
    with pytest.raises(ValueError, match="x.shape\\[1\\] != y.shape\\[1\\]"):
        K.batch_dot(a, K.constant(np.ones((2, 4), np.float32)), axes=1)
