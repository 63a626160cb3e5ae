"""Tests of the TF2-era import path: ``jaxsess.compat.v1`` and the eager switches."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import numpy as np
import pytest

import jaxsess
import jaxsess as tf


def test_compat_v1_is_the_jaxsess_namespace() -> None:
    v1 = importlib.import_module("jaxsess.compat.v1")
    assert v1 is jaxsess and sys.modules["jaxsess.compat.v1"] is jaxsess
    assert tf.compat.v1 is jaxsess  # reachable as an attribute under `import jaxsess as tf`
    assert tf.compat.v1.Session is tf.Session and tf.compat.v1.placeholder is tf.placeholder
    assert tf.compat.v1.compat.v1 is jaxsess


def test_compat_v1_session_runs_a_graph() -> None:
    x = tf.compat.v1.placeholder(tf.float32, [2])
    with tf.compat.v1.Session() as sess:
        out = sess.run(x * 2.0, {x: [1.0, 2.0]})
    np.testing.assert_array_equal(out, [2.0, 4.0])


def test_disable_switches_are_no_ops_and_enable_eager_refuses() -> None:
    assert tf.compat.v1.disable_eager_execution() is None
    assert tf.compat.v1.disable_v2_behavior() is None  # v1 shapes and seeds, reset by conftest
    assert not tf.resource_variables_enabled()  # as TF: new variables are reference variables
    tf.compat.v1.enable_v2_behavior()
    assert tf.resource_variables_enabled()
    assert not tf.executing_eagerly()
    with pytest.raises(ValueError, match="TF1 graph mode.*EagerSession"):
        tf.compat.v1.enable_eager_execution()
    assert not tf.executing_eagerly()


def test_v2_behavior_switches_control_flow_v2_and_layer_seeds() -> None:
    # As TF 2.21: disable_eager_execution() alone keeps control flow v2 on, disable_v2_behavior()
    # turns it off, and the layers' default initializers then take the graph's op seeds.
    assert tf.compat.v1.control_flow_v2_enabled()
    tf.compat.v1.disable_v2_behavior()
    assert not tf.compat.v1.control_flow_v2_enabled()
    tf.compat.v1.set_random_seed(1)
    a = tf.compat.v1.layers.dense(tf.compat.v1.ones([1, 3]), 2)  # kernel: op seed 0
    b = tf.compat.v1.random_uniform([3, 2], -np.sqrt(6 / 5), np.sqrt(6 / 5), seed=0)
    with tf.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        kernel = sess.run(tf.compat.v1.trainable_variables()[0])
        np.testing.assert_allclose(kernel, sess.run(b), rtol=1e-6)
    assert a.shape.as_list() == [1, 2]
    tf.compat.v1.enable_v2_behavior()
    assert tf.compat.v1.control_flow_v2_enabled()
    tf.compat.v1.disable_control_flow_v2()
    assert not tf.compat.v1.control_flow_v2_enabled()
    tf.compat.v1.enable_control_flow_v2()
    assert tf.compat.v1.control_flow_v2_enabled()


def test_newaxis_and_arg_max() -> None:
    assert tf.newaxis is None
    x = tf.constant(np.array([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]], np.float32))
    assert x[:, tf.newaxis].shape.as_list() == [2, 1, 3]
    amax, amin = tf.arg_max(x, 1), tf.arg_min(x, dimension=0)
    assert (amax.op.type, amax.op.name, amin.op.name) == ("ArgMax", "ArgMax", "ArgMin")
    with tf.Session() as sess:
        got_max, got_min = sess.run([amax, amin])
    np.testing.assert_array_equal(got_max, [0, 1])
    np.testing.assert_array_equal(got_min, [1, 0, 1])


# -- the lazy package: `import jaxsess` loads jaxsess._api on first use --------------------


def fresh(code: str) -> str:
    """Runs ``code`` in a fresh interpreter; its stdout."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_public_names_become_plain_attributes_of_the_package() -> None:
    assert "placeholder" in vars(jaxsess) and vars(jaxsess)["Session"] is tf.Session
    public = jaxsess.__all__
    assert {"Session", "placeholder", "TensorShape", "Dimension", "compat", "nn", "float32"} <= set(public)
    assert set(public) <= set(dir(jaxsess))
    assert all(hasattr(jaxsess, n) for n in public)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        jaxsess.no_such_name  # noqa: B018
    assert tf.tuple is not tuple and tf.TensorShape([2, None]).as_list() == [2, None]


def test_each_way_in_loads_the_whole_namespace() -> None:
    probe = (  # (sys.stdout.write: `from jaxsess import *` brings TF1's print)
        "import sys; sys.stdout.write(f\"{'jaxsess._api' in sys.modules} {'placeholder' in vars(sys.modules['jaxsess'])}\")"
    )
    assert fresh(f"import jaxsess\n{probe}").split() == ["False", "False"]
    for way in (
        "import jaxsess as tf; tf.placeholder",
        "from jaxsess import Session",
        "import jaxsess.compat.v1 as tf; tf.Session",
        "import jaxsess as tf; tf.nn",  # a submodule reached as an attribute
        "from jaxsess import *",
        "import jaxsess; dir(jaxsess)",
    ):
        assert fresh(f"{way}\n{probe}").split() == ["True", "True"], way
    # Operators are installed whichever way loaded the namespace.
    out = fresh(
        "import jaxsess as tf\nx = tf.nn.relu(tf.ones([2])) * 3.0\n"
        "with tf.Session() as s: print(s.run(x).tolist())"
    )
    assert out.strip() == "[3.0, 3.0]"


def test_public_objects_unpickle_in_a_fresh_process() -> None:
    objs = [
        tf.float64,
        tf.TensorShape([3, None]),
        tf.errors.InvalidArgumentError(None, None, "bad"),
        tf.ResourceCleanupStrategy.ON_SAFE_POINTS,
    ]
    blob = pickle.dumps(objs).hex()
    out = fresh(f"import pickle\nobjs = pickle.loads(bytes.fromhex({blob!r}))\nprint([repr(o) for o in objs])")
    assert out.strip() == repr([repr(o) for o in objs])
