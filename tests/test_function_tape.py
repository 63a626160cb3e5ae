"""tf.function and tf.GradientTape in graphs (values and names against TF: corpus v66_function_tape)."""

from __future__ import annotations

import jaxsess.compat.v1 as tf
import pytest


def test_non_persistent_tape_gives_one_set_of_gradients():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(2.0)
        with tf.GradientTape() as tape:
            y = x * x
        tape.gradient(y, x)
        with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
            tape.gradient(y, x)
        tape.reset()
        with tf.Session() as sess:
            assert sess.run(tape.gradient(y, x)) == 4.0


def test_function_returns_non_tensors_unchanged_and_runs_eagerly_as_a_call():
    g = tf.Graph()
    with g.as_default():
        @tf.function
        def f(x):
            return x + 1.0, "label", None

        t, label, none = f(tf.constant(1.0))
        assert (label, none) == ("label", None) and t.name == "PartitionedCall:0"
        assert f.python_function(3) == (4.0, "label", None)


def test_identity_n_of_one_tensor():
    g = tf.Graph()
    with g.as_default():
        (out,) = tf.identity_n([tf.constant([1, 2])])
        with tf.Session() as sess:
            assert sess.run(out).tolist() == [1, 2]
