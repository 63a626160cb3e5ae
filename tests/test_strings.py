"""String tensors (host values) and run-time printing."""

from __future__ import annotations

import io

import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.ops.logging_ops import format_v1, format_v2


def test_string_constant_fetches_bytes(sess: tf.Session) -> None:
    assert sess.run(tf.constant("Hello")) == b"Hello"
    arr = sess.run(tf.constant([["a", "bc"]]))
    assert isinstance(arr, np.ndarray) and arr.dtype == object and arr.tolist() == [[b"a", b"bc"]]


def test_string_placeholder_and_join_with_device_fetch(sess: tf.Session) -> None:
    p = tf.placeholder(tf.string, [])
    j = tf.strings.join([p, "!"], separator="")
    x = tf.constant(2.0) * 3.0
    out, val = sess.run([j, x], {p: "hey"})
    assert out == b"hey!"
    assert float(np.asarray(val)) == 6.0


def test_unfed_string_placeholder_names_it(sess: tf.Session) -> None:
    p = tf.placeholder(tf.string, [], name="who")
    with pytest.raises(tf.errors.InvalidArgumentError, match="who"):
        sess.run(tf.identity(p))


def test_device_op_on_string_raises_naming_it() -> None:
    s = tf.constant("a", name="text")
    with pytest.raises(TypeError, match="string tensor 'text:0'"):
        tf.add(s, s)


def test_as_string_reads_device_values(sess: tf.Session) -> None:
    v = tf.Variable([1.25, 2.0])
    sess.run(v.initializer)
    assert sess.run(tf.as_string(v * 2.0, precision=1)).tolist() == [b"2.5", b"4.0"]


def test_print_v1_format_and_passthrough(sess: tf.Session, capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0]])
    y = tf.Print(x, [x, tf.constant(3)], message="msg: ")
    out = sess.run(y)
    np.testing.assert_array_equal(np.asarray(out), [[1, 2, 3, 4, 5]])
    assert capsys.readouterr().err == "msg: [[1 2 3...]...][3]\n"


def test_print_v2_runs_as_target_and_control_dependency(sess: tf.Session) -> None:
    buf = io.StringIO()
    x = tf.constant([[1, 2], [3, 4]])
    op = tf.print("x:", x, "done", output_stream=buf)
    sess.run(op)
    assert buf.getvalue() == "x: [[1 2]\n [3 4]] done\n"
    with tf.control_dependencies([tf.print(tf.constant(0.5), output_stream=buf)]):
        z = tf.identity(x)
    sess.run(z)
    assert buf.getvalue().endswith("0.5\n")


def test_print_formats_like_tf() -> None:
    assert format_v1(np.arange(5), 3) == "0 1 2..."
    assert format_v2(np.arange(10), 3) == "[0 1 2 ... 7 8 9]"
    assert format_v2(np.float32(1 / 3), 3) == "0.333333343"
    assert format_v1(np.float32([1 / 3]), 3) == "0.333333"
    assert format_v2(np.zeros((2, 2, 1), np.int32), 3) == "[[[0]\n  [0]]\n\n [[0]\n  [0]]]"


def test_string_constants_round_trip_through_graph_def() -> None:
    s = tf.constant([["hi", "x"]])
    t = tf.strings.join([s, "!"])
    gd = tf.get_default_graph().as_graph_def()
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            assert sess.run(g2.get_tensor_by_name(t.name)).tolist() == [[b"hi!", b"x!"]]


def test_print_v2_quotes_strings_and_formats_structures(sess: tf.Session) -> None:
    buf = io.StringIO()
    op = tf.print(tf.constant([True, False]), tf.constant(["a", "b"]), {"k": tf.constant(1)},
                  [tf.constant(2), "x"], output_stream=buf)
    sess.run(op)
    assert buf.getvalue() == '[1 0] ["a" "b"] {\'k\': 1} [2, \'x\']\n'
