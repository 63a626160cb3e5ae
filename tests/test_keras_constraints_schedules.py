"""jaxsess.keras constraints, learning-rate schedules, clone_model and the small utilities.

The values pinned against real TF live in the corpus (``v71_*``); these tests cover
error paths, edge cases and Keras' bookkeeping.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import jaxsess
from jaxsess import keras
from jaxsess.keras import backend as K, constraints


@pytest.fixture(autouse=True)
def _fresh_keras() -> None:
    K.clear_session()


def _run(t: object) -> np.ndarray:
    return np.asarray(K.eval(t))


# -- constraints ---------------------------------------------------------------------------


def test_constraints_get_by_name_config_callable_and_none() -> None:
    assert constraints.get(None) is None
    assert isinstance(constraints.get("max_norm"), constraints.MaxNorm)
    assert isinstance(constraints.get("MinMaxNorm"), constraints.MinMaxNorm)
    assert isinstance(constraints.get("nonneg"), constraints.NonNeg)
    c = constraints.get({"class_name": "MaxNorm", "config": {"max_value": 3, "axis": [0, 1]},
                         "module": "keras.constraints", "registered_name": None})
    assert c.get_config() == {"max_value": 3, "axis": [0, 1]}

    def fn(w: object) -> object:
        return w

    assert constraints.get(fn) is fn


def test_constraints_get_errors_name_the_value() -> None:
    with pytest.raises(ValueError, match="Unknown constraint: 'foo'"):
        constraints.get("foo")
    with pytest.raises(ValueError, match="Could not interpret constraint function identifier: 3"):
        constraints.get(3)
    with pytest.raises(ValueError, match="no get_config"):
        constraints.serialize(lambda w: w)


def test_serialize_deserialize_round_trip() -> None:
    c = constraints.MinMaxNorm(0.5, 2.0, rate=0.3, axis=1)
    cfg = constraints.serialize(c)
    assert cfg == {"class_name": "MinMaxNorm", "config": {"min_value": 0.5, "max_value": 2.0, "rate": 0.3, "axis": 1}}
    back = constraints.deserialize(json.loads(json.dumps(cfg)))
    assert isinstance(back, constraints.MinMaxNorm) and back.get_config() == cfg["config"]
    assert constraints.serialize(None) is None


def test_max_norm_leaves_small_columns_and_scales_large_ones() -> None:
    w = np.array([[3.0, 0.1], [4.0, 0.2]], np.float32)  # column norms 5 and ~0.22
    out = _run(constraints.MaxNorm(2.0)(jaxsess.constant(w)))
    np.testing.assert_allclose(np.linalg.norm(out, axis=0), [2.0, np.linalg.norm(w[:, 1])], rtol=1e-5)
    out1 = _run(constraints.MaxNorm(1.0, axis=1)(jaxsess.constant(w)))
    np.testing.assert_allclose(np.linalg.norm(out1, axis=1), [1.0, 1.0], rtol=1e-5)


def test_non_neg_keeps_dtype_and_zeros_negatives() -> None:
    w = jaxsess.constant(np.array([-1.0, 0.0, 2.0], np.float64))
    out = constraints.NonNeg()(w)
    assert out.dtype == jaxsess.float64
    np.testing.assert_array_equal(_run(out), [0.0, 0.0, 2.0])


def test_unit_norm_of_zeros_is_zeros() -> None:
    np.testing.assert_array_equal(_run(constraints.UnitNorm()(jaxsess.zeros([3, 2]))), np.zeros((3, 2)))


def test_radial_constraint_rejects_other_ranks_and_non_square() -> None:
    with pytest.raises(ValueError, match="must have rank 4"):
        constraints.RadialConstraint()(jaxsess.zeros([3, 3]))
    with pytest.raises(ValueError, match="square kernel"):
        constraints.RadialConstraint()(jaxsess.zeros([3, 4, 1, 1]))


def test_radial_constraint_5x5_rings_from_the_diagonal() -> None:
    k = np.arange(25, dtype=np.float32).reshape(5, 5, 1, 1)
    out = _run(constraints.RadialConstraint()(jaxsess.constant(k)))[:, :, 0, 0]
    # tf_keras' code: centre kernel[1, 1], then rings kernel[2, 2], kernel[3, 3]
    assert out[2, 2] == k[1, 1, 0, 0]
    assert out[1, 1] == out[1, 3] == out[3, 2] == k[2, 2, 0, 0]
    assert out[0, 0] == out[4, 2] == out[0, 4] == k[3, 3, 0, 0]


def test_layer_constraint_strings_become_variable_constraints_and_config() -> None:
    layer = keras.layers.Dense(2, kernel_constraint="max_norm", bias_constraint="non_neg")
    layer(keras.Input((3,)))
    assert isinstance(layer.kernel.constraint, constraints.MaxNorm)
    assert isinstance(layer.bias.constraint, constraints.NonNeg)
    cfg = layer.get_config()
    assert cfg["kernel_constraint"] == {"class_name": "MaxNorm", "config": {"max_value": 2, "axis": 0}}
    clone = keras.layers.Dense.from_config(json.loads(json.dumps(cfg)))
    assert isinstance(clone.kernel_constraint, constraints.MaxNorm)


def test_unknown_constraint_name_fails_at_build() -> None:
    layer = keras.layers.Dense(2, kernel_constraint="no_such_constraint")
    with pytest.raises(ValueError, match="Unknown constraint"):
        layer(keras.Input((3,)))


def test_fit_applies_constraint_after_every_update() -> None:
    m = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones",
                                             kernel_constraint=constraints.MaxNorm(0.5))])
    m.compile(keras.optimizers.SGD(0.1), "mse")
    # before any update the initial value is not projected (as Keras)
    np.testing.assert_allclose(np.linalg.norm(m.get_weights()[0], axis=0), [np.sqrt(3)] * 2, rtol=1e-6)
    x = np.ones((4, 3), np.float32)
    m.train_on_batch(x, np.zeros((4, 2), np.float32))
    np.testing.assert_allclose(np.linalg.norm(m.get_weights()[0], axis=0), [0.5, 0.5], rtol=1e-5)


def test_custom_constraint_class_through_custom_object_scope() -> None:
    class Halve(constraints.Constraint):
        def __call__(self, w: object) -> object:
            return w * 0.5

    layer = keras.layers.Dense(1, kernel_constraint=Halve())
    cfg = json.loads(json.dumps(layer.get_config()))
    with pytest.raises(ValueError, match="Unknown constraint: 'Halve'"):
        keras.layers.Dense.from_config(cfg)
    with keras.utils.custom_object_scope({"Halve": Halve}):
        assert isinstance(keras.layers.Dense.from_config(cfg).kernel_constraint, Halve)
    assert isinstance(keras.layers.Dense.from_config(cfg, {"Halve": Halve}).kernel_constraint, Halve)


def test_custom_layer_class_from_custom_object_scope_in_model_from_json() -> None:
    class Twice(keras.layers.Layer):
        def __init__(self, **kwargs: object) -> None:
            super().__init__(**kwargs)

        def call(self, inputs: object, *args: object, **kwargs: object) -> object:
            return inputs * 2.0

    m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,)), Twice()])
    text = m.to_json()
    with pytest.raises(ValueError, match="Unknown layer: Twice"):
        keras.models.model_from_json(text)
    keras.utils.get_custom_objects()["Twice"] = Twice
    try:
        assert isinstance(keras.models.model_from_json(text).layers[-1], Twice)
    finally:
        del keras.utils.get_custom_objects()["Twice"]
    with keras.utils.CustomObjectScope({"Twice": Twice}):
        assert isinstance(keras.models.model_from_json(text).layers[-1], Twice)


# -- learning-rate schedules ----------------------------------------------------------------

S = keras.optimizers.schedules


def test_schedule_base_class_must_be_overridden() -> None:
    with pytest.raises(NotImplementedError, match="must override `__call__"):
        S.LearningRateSchedule()(0)
    with pytest.raises(NotImplementedError, match="must override `get_config"):
        S.LearningRateSchedule().get_config()


def test_piecewise_constant_checks_lengths_and_is_inclusive_at_boundaries() -> None:
    with pytest.raises(ValueError, match="should be 1 less than the length of values"):
        S.PiecewiseConstantDecay([1, 2], [0.1, 0.2])
    sched = S.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1])
    assert [float(_run(sched(s))) for s in (0, 2, 3, 5, 6)] == pytest.approx([1.0, 1.0, 0.5, 0.5, 0.1])


def test_exponential_decay_float64_initial_rate_keeps_dtype() -> None:
    out = S.ExponentialDecay(np.float64(0.5), 2, 0.5)(jaxsess.constant(4.0))
    assert out.dtype == jaxsess.float64
    assert float(_run(out)) == pytest.approx(0.125)


def test_deserialize_unknown_and_custom_schedule() -> None:
    with pytest.raises(ValueError, match="Unknown decay: 'Nope'"):
        S.deserialize({"class_name": "Nope", "config": {}})

    class Half(S.LearningRateSchedule):
        def __init__(self, rate: float) -> None:
            self.rate = rate

        def __call__(self, step: object) -> object:
            return jaxsess.constant(self.rate) * 0.5

        def get_config(self) -> dict[str, float]:
            return {"rate": self.rate}

    cfg = S.serialize(Half(0.2))
    assert cfg == {"class_name": "Half", "config": {"rate": 0.2}}
    assert S.deserialize(cfg, {"Half": Half}).rate == 0.2


def test_optimizer_keeps_the_schedule_as_learning_rate_and_counts_iterations() -> None:
    sched = S.ExponentialDecay(0.1, 1, 0.5)
    opt = keras.optimizers.SGD(sched)
    assert opt.learning_rate is sched
    m = keras.Sequential([keras.layers.Dense(1, input_shape=(1,), kernel_initializer="zeros", use_bias=False)])
    m.compile(opt, "mse")
    x, y = np.ones((1, 1), np.float32), np.ones((1, 1), np.float32)
    # w -= lr_t * 2 (w - 1): lr_0 = 0.1, lr_1 = 0.05
    m.train_on_batch(x, y)
    assert float(m.get_weights()[0][0, 0]) == pytest.approx(0.2)
    m.train_on_batch(x, y)
    assert float(m.get_weights()[0][0, 0]) == pytest.approx(0.2 + 0.05 * 2 * 0.8)
    assert int(K.get_value(opt.iterations)) == 2


def test_nadam_rejects_a_schedule_as_tf_keras() -> None:
    with pytest.raises(ValueError, match="Nadam optimizer does not support"):
        keras.optimizers.Nadam(S.ExponentialDecay(0.1, 3, 0.5))


def test_save_and_load_model_with_a_schedule(tmp_path: object) -> None:
    m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    m.compile(keras.optimizers.Adam(S.PolynomialDecay(0.1, 10, 0.01, power=2.0)), "mse")
    path = str(tmp_path) + "/m.h5"  # type: ignore[operator]
    m.save(path)
    back = keras.models.load_model(path)
    lr = back.optimizer.learning_rate
    assert isinstance(lr, S.PolynomialDecay) and lr.get_config() == m.optimizer.learning_rate.get_config()
    back.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), verbose=0)


# -- clone_model ----------------------------------------------------------------------------


def test_clone_model_errors() -> None:
    class Sub(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.d = keras.layers.Dense(1)

        def call(self, inputs: object, *args: object, **kwargs: object) -> object:
            return self.d(inputs)

    with pytest.raises(ValueError, match="subclassed model"):
        keras.models.clone_model(Sub())
    seq = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    with pytest.raises(ValueError, match="to be a callable"):
        keras.models.clone_model(seq, clone_function=3)
    with pytest.raises(ValueError, match="at most one tensor"):
        keras.models.clone_model(seq, input_tensors=[keras.Input((2,)), keras.Input((2,))])
    a = keras.Input((2,))
    fm = keras.Model(a, keras.layers.Dense(1)(a))
    with pytest.raises(ValueError, match="same number of tensors"):
        keras.models.clone_model(fm, input_tensors=[keras.Input((2,)), keras.Input((2,))])


def test_clone_of_an_unbuilt_sequential_builds_on_data() -> None:
    seq = keras.Sequential([keras.layers.Dense(3, kernel_initializer="ones"), keras.layers.Dense(1)])
    clone = keras.models.clone_model(seq)
    assert clone.weights == [] and len(clone.layers) == 2
    clone.compile("sgd", "mse")
    clone.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), verbose=0)
    assert [w.shape for w in clone.get_weights()] == [(2, 3), (3,), (3, 1), (1,)]


def test_clone_keeps_constraints_and_a_shared_layer_once() -> None:
    a = keras.Input((2,))
    b = keras.Input((2,))
    shared = keras.layers.Dense(2, kernel_constraint="non_neg")
    fm = keras.Model([a, b], keras.layers.add([shared(a), shared(b)]))
    clone = keras.models.clone_model(fm)
    dense = [layer for layer in clone.layers if isinstance(layer, keras.layers.Dense)]
    assert len(dense) == 1 and isinstance(dense[0].kernel.constraint, constraints.NonNeg)
    assert len(clone.weights) == 2


# -- Ftrl, legacy ----------------------------------------------------------------------------


def test_ftrl_slot_names_and_legacy_aliases() -> None:
    opt = keras.optimizers.legacy.Ftrl(0.1)
    assert keras.optimizers.legacy.Ftrl is keras.optimizers.Ftrl
    assert isinstance(keras.optimizers.get("ftrl"), keras.optimizers.Ftrl)
    m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    m.compile(opt, "mse")
    p = float(m.get_weights()[0].sum())  # the prediction for a row of ones (bias 0)
    m.train_on_batch(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))
    assert opt.get_slot_names() == ["accumulator", "linear"]
    # mse over two equal rows: g = 2 (p - 1) for each kernel entry; accumulator = 0.1 + g^2
    accum = K.get_value(opt.get_slot(m.layers[0].kernel, "accumulator"))
    np.testing.assert_allclose(accum, np.full((2, 1), 0.1 + (2 * (p - 1)) ** 2), rtol=1e-5)


def test_ftrl_rejects_a_positive_power() -> None:
    with pytest.raises(ValueError, match="`learning_rate_power` needs to be negative or zero. Received: "
                                         "learning_rate_power=0.5"):
        keras.optimizers.Ftrl(learning_rate_power=0.5)


# -- utils, layers ----------------------------------------------------------------------------


def test_normalize_keeps_zero_rows_and_dtype() -> None:
    out = keras.utils.normalize(np.array([[0.0, 0.0], [3.0, 4.0]], np.float32))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[0.0, 0.0], [0.6, 0.8]])
    # a vector comes back as one row, as tf_keras
    np.testing.assert_allclose(keras.utils.normalize(np.array([1.0, -3.0]), order=1), [[0.25, -0.75]])


def test_progbar_draws_bar_and_averages(capsys: pytest.CaptureFixture[str]) -> None:
    bar = keras.utils.Progbar(4, width=8, interval=0.0)
    bar.update(2, [("loss", 1.0)])
    bar.update(4, [("loss", 3.0), ("acc", 0.5)])
    text = capsys.readouterr().out
    assert "2/4 [===>....]" in text and "4/4 [========]" in text
    assert "loss: 2.0000" in text and "acc: 0.5000" in text and text.endswith("\n")
    quiet = keras.utils.Progbar(None, verbose=2)
    quiet.add(3, [("loss", 1.0)])
    assert capsys.readouterr().out == ""  # no target: verbose 2 only prints a finalized bar


def test_progbar_stateful_metrics_shown_as_given(capsys: pytest.CaptureFixture[str]) -> None:
    bar = keras.utils.Progbar(2, verbose=2, stateful_metrics=["acc"])
    bar.update(1, [("acc", 0.1), ("loss", 4.0)])
    bar.update(2, [("acc", 0.9), ("loss", 2.0)])
    text = capsys.readouterr().out
    assert text.startswith("2/2") and "acc: 0.9000" in text and "loss: 3.0000" in text


def test_conv1d_transpose_shapes_and_unsupported_arguments() -> None:
    layer = keras.layers.Conv1DTranspose(4, 3, strides=2)
    out = layer(keras.Input((5, 2)))
    assert out.shape.as_list() == [None, 11, 4] and layer.kernel.shape.as_list() == [3, 4, 2]
    same = keras.layers.Conv1DTranspose(4, 3, strides=2, padding="same")(keras.Input((5, 2)))
    assert same.shape.as_list() == [None, 10, 4]
    with pytest.raises(NotImplementedError, match="output_padding"):
        keras.layers.Conv1DTranspose(4, 3, output_padding=1)
    with pytest.raises(NotImplementedError, match="dilation_rate=1"):
        keras.layers.Conv1DTranspose(4, 3, dilation_rate=2)
    assert keras.layers.Convolution2DTranspose is keras.layers.Conv2DTranspose


def test_activity_regularization_loss_is_per_batch_mean() -> None:
    inp = keras.Input((2,))
    layer = keras.layers.ActivityRegularization(l1=0.5)
    m = keras.Model(inp, layer(inp))
    assert len(m.losses) == 1
    loss = K.get_session().run(m.losses[0], {inp: np.array([[1.0, -1.0], [2.0, 0.0]], np.float32)})
    assert float(loss) == pytest.approx(0.5 * 4.0 / 2)
    assert layer.get_config()["l1"] == 0.5


def test_ftrl_hyperparameters_survive_save_and_load(tmp_path: object) -> None:
    m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    m.compile(keras.optimizers.Ftrl(0.2, learning_rate_power=-0.3, initial_accumulator_value=0.5,
                                    l1_regularization_strength=0.01, l2_regularization_strength=0.02, beta=0.1,
                                    l2_shrinkage_regularization_strength=0.03), "mse")
    path = str(tmp_path) + "/ftrl.h5"  # type: ignore[operator]
    m.save(path)
    opt = keras.models.load_model(path).optimizer
    assert isinstance(opt, keras.optimizers.Ftrl)
    assert dict(opt._static) == dict(m.optimizer._static)
    assert float(K.get_value(opt.learning_rate)) == pytest.approx(0.2)


# -- optimizer configs --------------------------------------------------------------------------


@pytest.mark.parametrize("make", [
    lambda: keras.optimizers.SGD(0.5, momentum=0.8, nesterov=True),
    lambda: keras.optimizers.RMSprop(0.01, rho=0.8, momentum=0.5, centered=True),
    lambda: keras.optimizers.Adagrad(0.01, initial_accumulator_value=0.3),
    lambda: keras.optimizers.Nadam(0.01, schedule_decay=0.01),
    lambda: keras.optimizers.Adam(S.InverseTimeDecay(0.1, 2, 0.5), beta_1=0.8),
])
def test_optimizer_config_round_trips(make: object) -> None:
    opt = make()  # type: ignore[operator]
    cfg = json.loads(json.dumps(keras.optimizers.serialize(opt)))
    back = keras.optimizers.get(cfg)
    assert type(back) is type(opt)
    assert back.get_config() == opt.get_config()


def test_optimizer_deserialize_errors_and_tf_keys() -> None:
    with pytest.raises(ValueError, match="Unknown optimizer: 'Lion'"):
        keras.optimizers.deserialize({"class_name": "Lion", "config": {}})
    opt = keras.optimizers.deserialize({"module": "keras.optimizers.legacy", "class_name": "SGD", "registered_name": None,
                                        "config": {"name": "SGD", "learning_rate": 0.2, "decay": 0.0, "momentum": 0.0,
                                                   "nesterov": False, "clipnorm": None}})
    assert isinstance(opt, keras.optimizers.SGD) and opt.get_config()["learning_rate"] == pytest.approx(0.2)
    with pytest.raises(TypeError):
        keras.optimizers.deserialize({"class_name": "SGD", "config": {"no_such_argument": 1}})


def test_custom_layer_without_init_needs_no_get_config() -> None:
    class Double(keras.layers.Layer):
        def call(self, inputs: object, *args: object, **kwargs: object) -> object:
            return inputs * 2.0

    m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,)), Double(name="double")])
    assert m.layers[-1].get_config() == {"name": "double", "trainable": True, "dtype": "float32"}
    with keras.utils.custom_object_scope({"Double": Double}):
        assert isinstance(keras.models.model_from_json(m.to_json()).layers[-1], Double)


def test_experimental_cosine_schedules_are_the_schedules() -> None:
    assert keras.experimental.CosineDecay is S.CosineDecay
    assert keras.experimental.CosineDecayRestarts is S.CosineDecayRestarts


def test_load_model_reads_custom_loss_and_lambda_function_from_the_scope(tmp_path: object) -> None:
    def my_loss(y_true: object, y_pred: object) -> object:
        return keras.backend.mean(keras.backend.square(y_true - y_pred))  # type: ignore[operator]

    def triple(x: object) -> object:
        return x * 3.0  # type: ignore[operator]

    m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,)), keras.layers.Lambda(triple)])
    m.compile("sgd", my_loss)
    path = str(tmp_path) + "/custom.h5"  # type: ignore[operator]
    m.save(path)
    with keras.utils.custom_object_scope({"my_loss": my_loss, "triple": triple}):
        back = keras.models.load_model(path, safe_mode=False)  # a local function: stored as bytecode
    x = np.ones((2, 2), np.float32)
    np.testing.assert_allclose(back.predict(x), m.predict(x), rtol=1e-6)
    back.fit(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32), verbose=0)


def test_layers_returning_their_input_keep_the_model_graph() -> None:
    K.set_learning_phase(0)  # Dropout returns its input
    try:
        inp = keras.Input((3,))
        h = keras.layers.Dense(2)(inp)
        out = keras.layers.Lambda(lambda x: x)(keras.layers.Dropout(0.5)(h))
        assert out is not h
        m = keras.Model(inp, out)
        assert [layer.name for layer in m.layers] == ["input_1", "dense", "dropout", "lambda"]
        assert [layer.name for layer in keras.models.clone_model(m).layers] == [
            "input_1", "dense", "dropout", "lambda"]
    finally:
        K.clear_session()
