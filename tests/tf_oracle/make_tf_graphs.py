"""Writes GraphDefs as real TensorFlow writes them, and what TF computes with them.

Run with an interpreter that has ``tensorflow-cpu`` and ``tf_keras`` (the ``oracle`` extra)::

    /work/tfvenv/bin/python tests/tf_oracle/make_tf_graphs.py

It writes under ``tests/fixtures/tf_graphs/`` (small files, committed) one
binary ``GraphDef`` per case (``<case>.pb``) and ``goldens.json``: per case,
the fed values, the fetched tensor names and TF's values for them (dtype,
shape, data), and for training graphs the targets run between fetches.
``tests/test_tf_import.py`` imports each graph without TensorFlow and
compares strictly.

Cases (TF 2.21, ``tf.compat.v1`` with eager execution disabled):

* ``keras_reshape_pack`` — a frozen tf_keras model whose ``Reshape`` layer
  computes its target shape as ``Pack(StridedSlice(Shape(x)), ...)`` for an
  unknown batch dimension;
* ``transformer_block`` — a frozen tf_keras Transformer block (MultiHeadAttention,
  LayerNormalization, a gelu feed-forward) for an unknown batch;
* ``keras_bn_dropout`` — a frozen tf_keras Conv2D + BatchNormalization + Dropout
  (the learning phase as ``If`` nodes with optionals in their training branch);
* ``tensordot`` — ``tf.tensordot`` of a placeholder with unknown leading
  dimensions: its ``perm``/shape computed by ``Shape``/``GatherV2``/``Prod``/``ConcatV2``;
* ``range_split`` — ``Range(0, n)`` with ``n`` from ``Size``, ``Split``, ``SplitV``;
* ``train_sgd`` — a TF1 training graph (not frozen): ``VariableV2``,
  ``Assign``, ``ApplyGradientDescent`` and a resource variable's
  ``ResourceApplyGradientDescent``; two training steps;
* ``cond_v2``/``case_v2``/``while_v2``/``call_v2`` — control flow v2 and a
  ``tf.function`` call: ``If``/``StatelessIf``, ``Case``, ``While``/``StatelessWhile``,
  ``PartitionedCall`` with their ``FunctionDefLibrary`` (``alt``: a second
  run with other feeds: the other branch, an index out of range, no iteration);
* ``while_v2_grow`` — a v2 loop whose variable changes shape (``shape_invariants``);
* ``while_v1``/``nested_v1``/``rnn_v1`` — control flow v1: a ``tf.while_loop`` (and
  two nested ones) and a frozen
  ``dynamic_rnn`` (``Switch``, ``Merge``, ``Enter``, ``Exit``,
  ``NextIteration``, ``LoopCond``, ``TensorArray*V3``);
* ``lstm_v2`` — a frozen tf_keras ``LSTM`` with control flow v2
  (``While`` over ``TensorList*`` ops); ``lstm_v2_vars`` the same not frozen
  (the loop reads its kernels through resource handles; ``init`` first);
* ``call_stateful`` — a ``tf.function`` that assigns and reads a resource
  variable (``StatefulPartitionedCall``), and one that reads it in a
  ``tf.cond`` (an ``If`` in the body); fetches run one after another.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["CUDA_VISIBLE_DEVICES"] = ""
os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.nn.rnn_cell is tf_keras's

import numpy as np  # noqa: E402
import tensorflow as tf2  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_eager_execution()

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "tf_graphs"
GOLDENS: dict[str, Any] = {}


def _enc(v: Any) -> dict[str, Any]:
    a = np.asarray(v)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def _save(name: str, graph_def: Any, feeds: dict[str, Any], fetches: list[str], values: list[Any],
          **extra: Any) -> None:
    (OUT / f"{name}.pb").write_bytes(graph_def.SerializeToString(deterministic=True))
    GOLDENS[name] = {
        "feeds": {k: _enc(v) for k, v in feeds.items()},
        "fetches": fetches,
        "values": [_enc(v) for v in values],
        **extra,
    }
    ops = sorted({n.op for n in graph_def.node} | {n.op for f in graph_def.library.function for n in f.node_def})
    print(f"{name}: {len(graph_def.node)} nodes, {len(graph_def.library.function)} functions; ops {ops}")


def _freeze(sess: Any, g: Any, outputs: list[str]) -> Any:
    return tf.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), outputs)


def keras_reshape_pack() -> None:
    import tf_keras as keras

    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(1)
        inp = keras.Input((4, 6), name="x")
        h = keras.layers.Dense(6, name="dense")(inp)
        h = keras.layers.Reshape((3, 8), name="reshape")(h)
        out = keras.layers.Flatten(name="flat")(h)
        model = keras.Model(inp, out)
        sess = tf.Session(graph=g)
        sess.run(tf.global_variables_initializer())
        x = np.linspace(-1, 1, 2 * 4 * 6, dtype=np.float32).reshape(2, 4, 6)
        y = sess.run(model.output, {model.input: x})
        gd = _freeze(sess, g, [model.output.op.name])
    _save("keras_reshape_pack", gd, {model.input.name: x}, [model.output.name], [y])


def transformer_block() -> None:
    """A frozen tf_keras Transformer block: MultiHeadAttention (einsum, softmax), LayerNormalization,
    a Dense feed-forward with gelu (Erf), for an unknown batch."""
    import tf_keras as keras

    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(4)
        inp = keras.Input((4, 8), name="x")
        att = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")(inp, inp)
        h = keras.layers.LayerNormalization(name="ln")(inp + att)
        ff = keras.layers.Dense(8, activation="gelu", name="ff")(h)
        out = keras.layers.GlobalAveragePooling1D(name="pool")(h + ff)
        sess = tf.Session(graph=g)
        sess.run(tf.global_variables_initializer())
        x = np.linspace(-1, 1, 2 * 4 * 8, dtype=np.float32).reshape(2, 4, 8)
        y = sess.run(out, {inp: x})
        gd = _freeze(sess, g, [out.op.name])
    _save("transformer_block", gd, {inp.name: x}, [out.name], [y])


def keras_bn_dropout() -> None:
    """A frozen tf_keras Conv2D + BatchNormalization + Dropout: TF 2.x writes the learning phase
    as ``If`` nodes whose training branch returns optionals (variants) and draws dropout masks."""
    import tf_keras as keras

    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(5)
        inp = keras.Input((6, 6, 2), name="x")
        h = keras.layers.Conv2D(4, 3, name="conv")(inp)
        h = keras.layers.BatchNormalization(name="bn")(h)
        h = keras.layers.Dropout(0.5, seed=1, name="drop")(h)
        out = keras.layers.GlobalAveragePooling2D(name="pool")(h)
        sess = tf.Session(graph=g)
        sess.run(tf.global_variables_initializer())
        x = np.linspace(-1, 1, 2 * 6 * 6 * 2, dtype=np.float32).reshape(2, 6, 6, 2)
        y = sess.run(out, {inp: x})
        gd = _freeze(sess, g, [out.op.name])
    _save("keras_bn_dropout", gd, {inp.name: x}, [out.name], [y])


def tensordot() -> None:
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [None, None, 4], name="a")
        b = tf.constant(np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5), name="b")
        y = tf.tensordot(a, b, axes=[[2], [0]], name="dot")
        z = tf.identity(tf.transpose(y, tf.range(tf.rank(y) - 1, -1, -1)), name="z")
        av = np.linspace(-2, 2, 2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
        with tf.Session() as s:
            vals = s.run([y, z], {a: av})
    _save("tensordot", g.as_graph_def(), {"a:0": av}, [y.name, z.name], vals)


def range_split() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [6, 4], name="x")
        n = tf.size(x, name="n")
        r = tf.range(0, n, 3, name="r")
        parts = tf.split(x, 3, axis=0, name="split")
        v = tf.split(x, [1, 3], axis=1, name="splitv")
        s2 = tf.add(parts[2], tf.reduce_sum(v[1]), name="out")
        xv = np.arange(24, dtype=np.float32).reshape(6, 4)
        fetches = [r, parts[0], parts[1], v[0], v[1], s2]
        with tf.Session() as s:
            vals = s.run(fetches, {x: xv})
    _save("range_split", g.as_graph_def(), {"x:0": xv}, [t.name for t in fetches], vals)


def train_sgd() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.array([[0.5], [-0.25], [1.0]], np.float32), name="w", use_resource=False)
        b = tf.Variable(np.array([0.1], np.float32), name="b", use_resource=True)
        y = tf.add(tf.matmul(x, w), b, name="y")
        loss = tf.reduce_mean(tf.square(y), name="loss")
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        init = tf.global_variables_initializer()
        xv = np.array([[1, 2, 3], [-1, 0.5, 2]], np.float32)
        with tf.Session() as s:
            s.run(init)
            vals = []
            for _ in range(2):
                s.run(train, {x: xv})
                vals.extend(s.run([loss, "w:0", b.read_value()], {x: xv}))
        read_b = b.read_value().name
    _save("train_sgd", g.as_graph_def(), {"x:0": xv}, ["loss:0", "w:0", read_b], vals,
          init=init.name, train=train.name, steps=2)


def _v2_graph(name: str, build: Any, alt: dict[str, Any] | None = None) -> None:
    """A graph with control flow v2; ``alt``: other values of some feeds, run too (goldens' ``alt``)."""
    tf.enable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            feeds, fetches = build()
            with tf.Session() as s:
                vals = s.run(fetches, feeds)
                extra = {}
                if alt is not None:
                    alt_feeds = {k: alt.get(k.op.name, v) for k, v in feeds.items()}
                    extra["alt"] = {"feeds": {k.name: _enc(v) for k, v in alt_feeds.items()},
                                    "values": [_enc(v) for v in s.run(fetches, alt_feeds)]}
    finally:
        tf.disable_control_flow_v2()
    _save(name, g.as_graph_def(), {k.name: v for k, v in feeds.items()}, [t.name for t in fetches], vals, **extra)


def cond_v2() -> None:
    def build() -> Any:
        x = tf.placeholder(tf.float32, [3], name="x")
        p = tf.placeholder(tf.bool, [], name="p")
        y = tf.cond(p, lambda: tf.square(x) + 1.0, lambda: tf.sin(x) * 2.0, name="cond")
        y2 = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 3.0, lambda: x - 3.0, name="cond2")
        return {x: np.array([1.0, -2.0, 0.5], np.float32), p: np.array(False)}, [y, y2]

    _v2_graph("cond_v2", build, {"p": np.array(True), "x": np.array([-1.0, -2.0, 0.5], np.float32)})


def case_v2() -> None:
    def build() -> Any:
        x = tf.placeholder(tf.float32, [2], name="x")
        i = tf.placeholder(tf.int32, [], name="i")
        y = tf2.switch_case(i, [lambda: x + 1.0, lambda: x * 10.0, lambda: -x], name="case")
        return {x: np.array([1.5, -2.0], np.float32), i: np.array(1, np.int32)}, [y]

    _v2_graph("case_v2", build, {"i": np.array(7, np.int32)})


def while_v2_grow() -> None:
    def build() -> Any:
        x = tf.placeholder(tf.float32, [1], name="x")
        _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.concat([v, v], 0)), [tf.constant(0), x],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])], name="grow")
        return {x: np.array([2.0], np.float32)}, [y]

    _v2_graph("while_v2_grow", build)


def while_v2() -> None:
    def build() -> Any:
        x = tf.placeholder(tf.float32, [2], name="x")
        n = tf.placeholder(tf.int32, [], name="n")
        i0 = tf.constant(0)
        _, y = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 1.5 + 1.0), [i0, x], name="loop")
        return {x: np.array([1.0, -1.0], np.float32), n: np.array(4, np.int32)}, [y]

    _v2_graph("while_v2", build, {"n": np.array(0, np.int32)})


def call_v2() -> None:
    @tf2.function
    def f(a: Any, b: Any) -> Any:
        return tf.matmul(a, b) + 1.0, tf.reduce_sum(a)

    def build() -> Any:
        a = tf.placeholder(tf.float32, [2, 3], name="a")
        b = tf.placeholder(tf.float32, [3, 2], name="b")
        y, s = f(a, b)
        return ({a: np.arange(6, dtype=np.float32).reshape(2, 3), b: np.ones((3, 2), np.float32)},
                [tf.identity(y, name="y"), tf.identity(s, name="s")])

    _v2_graph("call_v2", build, {"a": np.full((2, 3), -1.0, np.float32)})


def while_v1() -> None:
    tf.disable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        n = tf.placeholder(tf.int32, [], name="n")
        _, y = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 1.5 + 1.0),
                             [tf.constant(0), x], name="loop")
        y = tf.identity(y, name="y")
        p = tf.placeholder(tf.bool, [], name="p")
        c = tf.identity(tf.cond(p, lambda: x * 2.0, lambda: x - 1.0), name="c")
        feeds = {x: np.array([1.0, -1.0], np.float32), n: np.array(3, np.int32), p: np.array(True)}
        alt = {x: np.array([2.0, 0.5], np.float32), n: np.array(0, np.int32), p: np.array(False)}
        gd = g.as_graph_def()
        dx = tf.gradients(tf.reduce_sum(y * y), x)[0]
        with tf.Session() as s:
            vals = s.run([y, c], feeds)
            alt_vals = s.run([y, c], alt)
            grad = s.run(dx, feeds)
    _save("while_v1", gd, {k.name: v for k, v in feeds.items()}, [y.name, c.name], vals,
          alt={"feeds": {k.name: _enc(v) for k, v in alt.items()}, "values": [_enc(v) for v in alt_vals]},
          grad={"x": "x:0", "y": "y:0", "value": _enc(grad)})


def nested_v1() -> None:
    """Nested TF1 loops: for i < n: for j < i + 1: v = v * 0.5 + j."""
    tf.disable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        n = tf.placeholder(tf.int32, [], name="n")

        def outer(i: Any, v: Any) -> Any:
            _, v2 = tf.while_loop(lambda j, u: j < i + 1, lambda j, u: (j + 1, u * 0.5 + tf.cast(j, tf.float32)),
                                  [tf.constant(0), v], name="inner")
            return i + 1, v2

        _, y = tf.while_loop(lambda i, v: i < n, outer, [tf.constant(0), x], name="outer")
        y = tf.identity(y, name="y")
        feeds = {x: np.array([1.0, -3.0], np.float32), n: np.array(3, np.int32)}
        with tf.Session() as s:
            vals = s.run([y], feeds)
    _save("nested_v1", g.as_graph_def(), {k.name: v for k, v in feeds.items()}, [y.name], vals)


def rnn_v1() -> None:
    tf.disable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(3)
        x = tf.placeholder(tf.float32, [2, 5, 3], name="x")
        cell = tf.nn.rnn_cell.BasicRNNCell(4)
        out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        out = tf.identity(out, name="out")
        state = tf.identity(state, name="state")
        xv = np.linspace(-1, 1, 30, dtype=np.float32).reshape(2, 5, 3)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            vals = s.run([out, state], {x: xv})
            gd = _freeze(s, g, ["out", "state"])
            grad = s.run(tf.gradients(tf.reduce_sum(out * out), x)[0], {x: xv})
    _save("rnn_v1", gd, {"x:0": xv}, ["out:0", "state:0"], vals, grad={"x": "x:0", "y": "out:0", "value": _enc(grad)})


def lstm_v2() -> None:
    import tf_keras as keras

    tf.enable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(2)
            inp = keras.Input((5, 3), name="x")
            out = keras.layers.LSTM(4, name="lstm")(inp)
            model = keras.Model(inp, out)
            sess = tf.Session(graph=g)
            sess.run(tf.global_variables_initializer())
            xv = np.linspace(-1, 1, 2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
            y = sess.run(model.output, {model.input: xv})
            gd = _freeze(sess, g, [model.output.op.name])
        _save("lstm_v2", gd, {model.input.name: xv}, [model.output.name], [y])
    finally:
        tf.disable_control_flow_v2()


GRADS = {  # case -> (x, y): TF's d sum(y * y) / dx on the case's feeds (goldens' "grad")
    "tensordot": ("a:0", "z:0"),
    "keras_reshape_pack": ("x:0", "flat/Reshape:0"),
    "transformer_block": ("x:0", "pool/Mean:0"),
    "cond_v2": ("x:0", "cond/Identity:0"),
    "while_v2": ("x:0", "loop/Identity_3:0"),
    "lstm_v2": ("x:0", "lstm/strided_slice_3:0"),
}


def gradients() -> None:
    """TF's gradients of the imported graphs (the GraphDef imported into a fresh TF graph; TF cannot
    differentiate imported v1 loops: those cases record theirs in the graph that made them)."""
    for case, (x_name, y_name) in GRADS.items():
        gd = tf.GraphDef.FromString((OUT / f"{case}.pb").read_bytes())
        g = tf.Graph()
        with g.as_default():
            tf.import_graph_def(gd, name="")
            x, y = g.get_tensor_by_name(x_name), g.get_tensor_by_name(y_name)
            dx = tf.gradients(tf.reduce_sum(y * y), x)[0]
            feeds = {k: np.array(v["data"], v["dtype"]).reshape(v["shape"]) for k, v in GOLDENS[case]["feeds"].items()}
            with tf.Session() as s:
                GOLDENS[case]["grad"] = {"x": x_name, "y": y_name, "value": _enc(s.run(dx, feeds))}


def lstm_v2_vars() -> None:
    """The v2 LSTM not frozen: its ``While`` reads the kernels through resource handles."""
    import tf_keras as keras

    tf.enable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(2)
            inp = keras.Input((5, 3), name="x")
            layer = keras.layers.LSTM(4, name="lstm")
            out = layer(inp)
            init = tf.global_variables_initializer()
            with tf.control_dependencies([init]):  # weights that do not depend on the random initializers
                set_w = tf.group(*[w.assign(np.linspace(-0.5, 0.5, int(np.prod(w.shape)), dtype=np.float32)
                                            .reshape(w.shape)) for w in layer.weights], name="set_weights")
            sess = tf.Session(graph=g)
            sess.run(set_w)
            xv = np.linspace(-1, 1, 2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
            y = sess.run(out, {inp: xv})
            gd = g.as_graph_def()
        _save("lstm_v2_vars", gd, {inp.name: xv}, [out.name], [y], init=set_w.name)
    finally:
        tf.disable_control_flow_v2()


def call_stateful() -> None:
    """A ``tf.function`` that reads and assigns a resource variable: ``StatefulPartitionedCall``."""
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.array([1.0, 2.0], np.float32), name="v", use_resource=True)
        x = tf.placeholder(tf.float32, [2], name="x")

        @tf2.function
        def step(x: Any) -> Any:
            v.assign_add(x * 2.0)
            return v.read_value() * 10.0

        @tf2.function
        def pick(x: Any, p: Any) -> Any:
            return tf.cond(p, lambda: v.read_value() * x, lambda: v.read_value() - x)

        y = tf.identity(step(x), name="y")
        p = tf.placeholder(tf.bool, [], name="p")
        z = tf.identity(pick(x, p), name="z")
        init = tf.global_variables_initializer()
        xv = np.array([0.5, -1.0], np.float32)
        with tf.Session() as s:
            s.run(init)
            vals = [s.run(y, {x: xv}), s.run(y, {x: xv}), s.run(v.read_value()), s.run(z, {x: xv, p: True}),
                    s.run(z, {x: xv, p: True})]
        read = v.read_value().name
    _save("call_stateful", g.as_graph_def(), {"x:0": xv, "p:0": np.array(True)}, ["y:0", "y:0", read, "z:0", "z:0"],
          vals, init=init.name)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for case in (keras_reshape_pack, transformer_block, keras_bn_dropout, tensordot, range_split, train_sgd, cond_v2, case_v2, while_v2, while_v2_grow,
                 call_v2,
                 while_v1, nested_v1, rnn_v1, lstm_v2, lstm_v2_vars, call_stateful):
        case()
    gradients()
    (OUT / "goldens.json").write_text(json.dumps(GOLDENS, indent=1, sort_keys=True) + "\n")
    print(f"TensorFlow {tf2.__version__}: {len(GOLDENS)} cases -> {OUT}")


if __name__ == "__main__":
    main()
