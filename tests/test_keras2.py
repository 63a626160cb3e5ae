"""jaxsess.keras, second pass: model files (HDF5, TF checkpoints, JSON configs), models with
several outputs, generators, learning-rate variables and callbacks.

The behaviours pinned against real TF live in the corpus (``v51_*``); these tests cover
what the corpus does not: files written by TF's Keras, error paths and Keras' bookkeeping.
"""

from __future__ import annotations

from pathlib import Path

import h5py
import numpy as np
import pytest

from jaxsess import keras
from jaxsess.keras import backend as K

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _fresh_keras() -> None:
    K.clear_session()


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
    clone = keras.models.model_from_json(model.to_json())
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
    with pytest.raises(OSError, match="not TF SavedModels"):
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
