"""Tensor's Python operators: methods of the core class, dispatched through the
table the TF1 op library fills when it is imported (not installed by the faces)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from jaxsess._core.graph._graph import TENSOR_OPERATORS, Tensor, register_tensor_operators


def run_fresh(code: str) -> str:
    """``code`` in a fresh interpreter (nothing imported yet); its stdout."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_operators_are_methods_of_the_class_body() -> None:
    for name in TENSOR_OPERATORS:
        assert name in vars(Tensor), name
    # == and != stay identity (TF1 graph mode): Tensor defines neither.
    assert "__eq__" not in vars(Tensor) and "__ne__" not in vars(Tensor)


def test_operators_work_after_importing_only_math_ops() -> None:
    out = run_fresh(
        """
        import sys
        import jaxsess._tf1.ops.math_ops
        from jaxsess._core.graph._builder import placeholder
        from jaxsess._core.graph._graph import Graph, Tensor

        g = Graph()
        with g.as_default():
            x = placeholder("float32", [2, 2])
            y = (1 + x) * 2 - x / 4 @ x
            z = -x[0, 1:] ** 2
            c = (x < 1) & ~(x >= 3) | (x > 2) ^ (x <= 0)
            assert all(isinstance(t, Tensor) for t in (y, z, c, abs(x), 2 ** x, 5 // x, 7 % x))
            assert (x == x) is True and (x != x) is False
            print([op.type for op in g.get_operations() if op.type != "Const"][1:6])
        print(sorted(m for m in sys.modules if m.startswith("jaxsess._tf1.ops.")))
        """
    )
    types_line, modules_line = out.strip().splitlines()
    assert types_line == "['AddV2', 'Mul', 'TrueDiv', 'MatMul', 'Sub']"
    assert "'jaxsess._tf1.ops._operators'" in modules_line


def test_without_the_op_library_an_operator_names_what_to_import() -> None:
    out = run_fresh(
        """
        import sys
        from types import SimpleNamespace
        from jaxsess._core import dtypes
        from jaxsess._core.graph._graph import Graph, TensorShape

        g = Graph()
        op = g._create_op(SimpleNamespace(type="Fake", default_name="fake"), [], {}, None,
                          [(TensorShape([2]), dtypes.float32)])
        x = op.outputs[0]
        for use in (lambda: x + 1, lambda: 1 - x, lambda: -x, lambda: x[0], lambda: x @ x, lambda: x < 1):
            try:
                use()
            except TypeError as e:
                print(e)
            else:
                print("no error")
        print(x == x, x != x)
        print([m for m in sys.modules if m.startswith("jaxsess._tf1")])
        """
    )
    lines = out.strip().splitlines()
    assert len(lines) == 8
    for line, method in zip(lines, ["__add__", "__rsub__", "__neg__", "__getitem__", "__matmul__", "__lt__"]):
        assert line.startswith(f"Tensor.{method} needs the TF1 op library"), line
        assert "import jaxsess._tf1.ops" in line
    assert lines[6] == "True False"
    assert lines[7] == "[]"


def test_register_refuses_a_name_that_is_not_an_operator() -> None:
    with pytest.raises(ValueError, match="__eq__"):
        register_tensor_operators({"__eq__": lambda a, b: a})


def test_variable_operators_are_methods_of_its_class_body() -> None:
    from jaxsess._tf1.ops.state_ops import Variable

    for name in TENSOR_OPERATORS:
        if name not in ("__xor__", "__rxor__"):  # as before: a variable has no ^
            assert name in vars(Variable), name


def test_variable_operators_act_on_its_value() -> None:
    import jaxsess as tf

    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
        outs = [v + 1, 1 + v, v @ v, -v, v[1], v < 2.5, abs(v), 2.0 ** v]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = sess.run(outs)
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    want = [a + 1, 1 + a, a @ a, -a, a[1], a < 2.5, abs(a), 2.0 ** a]
    for w, x in zip(want, got, strict=True):
        np.testing.assert_allclose(x, w, rtol=1e-6)
