"""tf.distributions sampling with a graph or op seed draws TF's samples for the families built on uniform,
normal and categorical draws (Normal, Uniform, Bernoulli, Categorical, Laplace, Exponential), run after run."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}

tf.set_random_seed(4)
samples = {
    "normal": tf.distributions.Normal(loc=[0.0, 1.0], scale=[1.0, 2.0]).sample(3),
    "uniform": tf.distributions.Uniform(low=-1.0, high=2.0).sample([2, 2], seed=7),
    "bernoulli": tf.distributions.Bernoulli(probs=0.3).sample(5),
    "categorical": tf.distributions.Categorical(logits=[0.0, 1.0, 2.0]).sample(4),
    "laplace": tf.distributions.Laplace(0.0, 1.0).sample(3),
    "exponential": tf.distributions.Exponential(rate=2.0).sample(3),
}
with tf.Session() as sess:
    for run in range(2):
        for key, value in sess.run(samples).items():
            RESULTS[f"{key}_{run}"] = value
