"""Keras learning-rate schedules (ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay, InverseTimeDecay,
CosineDecay, CosineDecayRestarts) as the learning_rate of Keras optimizers in fit, stepped by the optimizer's
iterations; their values on given steps, and serialize/deserialize."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 1e-6}

S = tf.keras.optimizers.schedules
rng = np.random.RandomState(7)
x = rng.randn(20, 3).astype(np.float32)
y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
k0 = rng.randn(3, 4).astype(np.float32) * 0.5
k1 = rng.randn(4, 1).astype(np.float32) * 0.5

cases = [
    ("exp_sgd", lambda: tf.keras.optimizers.SGD(S.ExponentialDecay(0.1, decay_steps=3, decay_rate=0.5))),
    ("exp_staircase_adam", lambda: tf.keras.optimizers.Adam(S.ExponentialDecay(0.05, 4, 0.7, staircase=True))),
    ("piecewise_momentum", lambda: tf.keras.optimizers.SGD(S.PiecewiseConstantDecay([3, 7], [0.1, 0.05, 0.01]),
                                                           momentum=0.9)),
    ("poly_rmsprop", lambda: tf.keras.optimizers.RMSprop(S.PolynomialDecay(0.02, 8, 0.001, power=2.0))),
    ("poly_cycle_sgd", lambda: tf.keras.optimizers.SGD(S.PolynomialDecay(0.1, 4, 0.01, cycle=True))),
    ("inverse_adagrad", lambda: tf.keras.optimizers.Adagrad(S.InverseTimeDecay(0.3, 2, 0.5))),
    ("cosine_adam", lambda: tf.keras.optimizers.Adam(S.CosineDecay(0.05, 10, alpha=0.1))),
    ("cosine_warmup_sgd", lambda: tf.keras.optimizers.SGD(S.CosineDecay(0.01, 6, warmup_target=0.1,
                                                                        warmup_steps=3))),
    ("restarts_sgd", lambda: tf.keras.optimizers.SGD(S.CosineDecayRestarts(0.1, 3, t_mul=2.0, m_mul=0.5))),
    ("restarts_tmul1_adamax", lambda: tf.keras.optimizers.Adamax(S.CosineDecayRestarts(0.02, 4, t_mul=1.0,
                                                                                     alpha=0.2))),
    ("exp_sgd_decay", lambda: tf.keras.optimizers.SGD(S.ExponentialDecay(0.1, 3, 0.5), decay=0.1)),
]
for key, make in cases:
    m = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)), tf.keras.layers.Dense(1)])
    m.set_weights([k0, np.zeros(4, np.float32), k1, np.zeros(1, np.float32)])
    opt = make()
    m.compile(opt, "mse")
    h = m.fit(x, y, batch_size=5, epochs=3, verbose=0, shuffle=False)
    RESULTS[key + "_loss"] = [float(v) for v in h.history["loss"]]
    RESULTS[key + "_weights"] = m.get_weights()
    RESULTS[key + "_iterations"] = int(tf.keras.backend.get_value(opt.iterations))

# the schedules' values on steps 0..12 (a float step, as the optimizers give)
schedules = {
    "exp": S.ExponentialDecay(0.1, 3, 0.5),
    "exp_stair": S.ExponentialDecay(0.1, 3, 0.5, staircase=True),
    "piecewise": S.PiecewiseConstantDecay([2.0, 5.0], [1.0, 0.5, 0.1]),
    "poly": S.PolynomialDecay(1.0, 5, 0.1, power=0.5),
    "poly_cycle": S.PolynomialDecay(1.0, 5, 0.1, cycle=True),
    "inverse": S.InverseTimeDecay(1.0, 2, 0.5),
    "inverse_stair": S.InverseTimeDecay(1.0, 2, 0.5, staircase=True),
    "cosine": S.CosineDecay(1.0, 8, alpha=0.2),
    "cosine_warmup": S.CosineDecay(0.0, 6, warmup_target=1.0, warmup_steps=4),
    "restarts": S.CosineDecayRestarts(1.0, 2, t_mul=1.5, m_mul=0.8, alpha=0.1),
    "restarts_t1": S.CosineDecayRestarts(1.0, 3, t_mul=1.0),
}
with tf.Graph().as_default(), tf.Session() as sess:
    step = tf.placeholder(tf.float32, [])
    for key, sched in schedules.items():
        out = sched(step)
        RESULTS["values_" + key] = [float(sess.run(out, {step: float(s)})) for s in range(13)]
    RESULTS["int_step_piecewise"] = float(sess.run(S.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1])(3)))

for key, sched in schedules.items():
    cfg = S.serialize(sched)
    RESULTS["config_" + key] = [cfg["class_name"], cfg["config"]]
    RESULTS["deserialized_" + key] = S.deserialize(cfg).get_config()
try:
    S.PiecewiseConstantDecay([1, 2], [0.1, 0.2])
except ValueError as e:
    RESULTS["piecewise_error"] = "should be 1 less" in str(e)
try:
    tf.keras.optimizers.Nadam(S.ExponentialDecay(0.1, 3, 0.5))
except ValueError as e:
    RESULTS["nadam_error"] = str(e)
