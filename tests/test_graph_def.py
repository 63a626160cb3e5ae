"""Tests of graph serialisation: ``Graph.as_graph_def`` (TF's ``GraphDef`` proto) and ``import_graph_def``.

Every round trip goes through the serialized bytes and checks that the
imported graph computes what the original does.
"""

from __future__ import annotations

import json
import math
import os

import ml_dtypes
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

import jaxsess as tf
from jaxsess import errors
from jaxsess._core.graph._graph_def import MIN_CONSUMER, PRIVATE_ATTRS, PRODUCER, import_graph_def

RS = np.random.RandomState(0)
X = RS.randn(6, 4).astype(np.float32)


def through_bytes(gd: tf.GraphDef) -> tf.GraphDef:
    return tf.GraphDef.FromString(gd.SerializeToString())


def roundtrip(g: tf.Graph, name: str = "", **kwargs: object) -> tuple[tf.Graph, tf.GraphDef]:
    """``g`` through its serialized ``GraphDef`` into a new graph; returns the graph and the def."""
    gd = through_bytes(g.as_graph_def())
    g2 = tf.Graph()
    with g2.as_default():
        import_graph_def(gd, name=name, **kwargs)
    return g2, gd


def run_both(g: tf.Graph, g2: tf.Graph, fetches: list[str], feeds: dict[str, np.ndarray], init: str | None = None) -> None:
    results = []
    for graph in (g, g2):
        with tf.Session(graph=graph) as s:
            if init:
                s.run(init)
            results.append([np.asarray(v) for v in s.run(fetches, feeds)])
    for a, b in zip(*results, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_format_is_tf_graph_def() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        c = tf.constant([1.0, 2.0, 3.0, 4.0], name="c")
        with tf.control_dependencies([c.op]):
            tf.add(x, c, name="y")
        tf.reduce_mean(x, axis=1, keepdims=True, name="m")
        tf.matmul(x, tf.ones([4, 2]), transpose_a=False, transpose_b=False, name="mm")
    gd = g.as_graph_def()
    assert isinstance(gd, tf.GraphDef)
    assert (gd.versions.producer, gd.versions.min_consumer) == (PRODUCER, MIN_CONSUMER)
    nodes = {n.name: n for n in gd.node}
    assert [n.name for n in gd.node][:3] == ["x", "c", "y"]  # creation order
    assert nodes["x"].op == "Placeholder"
    assert nodes["x"].attr["dtype"].type == 1  # DT_FLOAT
    assert [d.size for d in nodes["x"].attr["shape"].shape.dim] == [-1, 4]
    assert nodes["y"].op == "AddV2" and nodes["y"].attr["T"].type == 1
    assert list(nodes["y"].input) == ["x", "c"]  # c is an input: no extra control edge, as TF1
    assert nodes["c"].attr["value"].tensor.dtype == 1 and nodes["c"].attr["dtype"].type == 1
    # Mean's axes are a Const input and keep_dims an attr, as TF
    assert nodes["m"].op == "Mean" and nodes["m"].attr["keep_dims"].b
    axes = nodes[nodes["m"].input[1]]
    assert axes.op == "Const" and list(axes.attr["value"].tensor.int_val) == [1]  # one value: int_val, as TF
    assert nodes["mm"].attr["transpose_a"].b is False and "transpose_b" in nodes["mm"].attr
    assert not any(PRIVATE_ATTRS in n.attr for n in gd.node)  # all TF attrs, nothing private
    assert [d.size for d in nodes["y"].attr["_output_shapes"].list.shape[0].dim] == [-1, 4]


def test_pbtxt_and_write_graph(tmp_path) -> None:
    from google.protobuf import text_format

    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        tf.nn.relu(x, name="r")
    p_txt = tf.train.write_graph(g, str(tmp_path), "g.pbtxt")
    p_bin = tf.io.write_graph(g.as_graph_def(), str(tmp_path / "sub"), "g.pb", as_text=False)
    with open(p_txt) as f:
        gd_txt = text_format.Parse(f.read(), tf.GraphDef())
    with open(p_bin, "rb") as f:
        gd_bin = tf.GraphDef.FromString(f.read())
    assert gd_txt == gd_bin == g.as_graph_def()
    with tf.Graph().as_default():
        (r,) = import_graph_def(gd_txt, return_elements=["r:0"], name="")
        with tf.Session() as s:
            np.testing.assert_array_equal(np.asarray(s.run(r, {"x:0": -X})), np.maximum(-X, 0))


def test_write_graph_that_fails_leaves_no_temporary(tmp_path) -> None:
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0, name="c")
    (tmp_path / "g.pb").mkdir()  # the target is a directory: the final rename fails
    with pytest.raises(OSError):
        tf.io.write_graph(g, str(tmp_path), "g.pb", as_text=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pb"]


def test_simple_graph_roundtrip_same_results() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        w = tf.constant(RS.randn(4, 3).astype(np.float32), name="w")
        y = tf.nn.softmax(tf.matmul(x, w) * 2.0 - 1.0, name="y")
        z = tf.reduce_sum(tf.transpose(y), axis=1, keepdims=True, name="z")
        parts = tf.split(y, [1, 2], axis=1)
        s = tf.strided_slice(y, [0, 1], [4, 3], [2, 1]) if hasattr(tf, "strided_slice") else y[::2, 1:]
    g2, _ = roundtrip(g)
    run_both(g, g2, [y.name, z.name, parts[0].name, parts[1].name, s.name], {"x:0": X})


def test_default_name_prefixes_and_uniquifies() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        tf.identity(x * 3.0, name="y")
    gd = g.as_graph_def()
    g2 = tf.Graph()
    with g2.as_default():
        import_graph_def(gd)
        import_graph_def(gd)
    names = [op.name for op in g2.get_operations()]
    assert "import/x" in names and "import/y" in names
    assert "import_1/x" in names and "import_1/y" in names
    with tf.Session(graph=g2) as s:
        np.testing.assert_allclose(s.run("import_1/y:0", {"import_1/x:0": [1.0, 2.0]}), [3.0, 6.0])


def test_input_map_and_return_elements() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        y = tf.multiply(x, 2.0, name="y")
        tf.cond(tf.reduce_sum(x) > 0, lambda: y + x, lambda: y - x, name="c")
    gd = through_bytes(g.as_graph_def())
    g2 = tf.Graph()
    with g2.as_default():
        k = tf.constant([1.0, 2.0, 3.0], name="k")
        y2, cop, c2 = import_graph_def(gd, input_map={"x:0": k}, return_elements=["y:0", "c", "c:0"], name="m")
    assert isinstance(y2, tf.Tensor) and y2.name == "m/y:0"
    assert isinstance(cop, tf.Operation) and cop.name == "m/c"
    assert y2.op.inputs[0] is k
    with tf.Session(graph=g2) as s:
        np.testing.assert_allclose(s.run(y2), [2.0, 4.0, 6.0])
        np.testing.assert_allclose(s.run(c2), [3.0, 6.0, 9.0])  # the cond's captured x is mapped too


def test_input_map_key_not_in_graph_def_raises() -> None:
    g = tf.Graph()
    with g.as_default():
        tf.placeholder(tf.float32, [2], name="x")
    g2 = tf.Graph()
    with g2.as_default():
        k = tf.constant([1.0, 2.0])
        with pytest.raises(ValueError, match="not found in graph_def"):
            import_graph_def(g.as_graph_def(), input_map={"nope:0": k})
        with pytest.raises(ValueError, match="return_element"):
            import_graph_def(g.as_graph_def(), return_elements=["nope:0"])


def test_devices_control_inputs_and_refined_shapes_survive() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, None, name="x")
        x.set_shape([3])
        with tf.device("/cpu:2"):
            a = tf.identity(x, name="a")
        with tf.control_dependencies([a.op]):
            b = tf.constant(1.0, name="b")
    g2, _ = roundtrip(g)
    a2 = g2.get_operation_by_name("a")
    b2 = g2.get_operation_by_name("b")
    assert a2.device == a.op.device == "/device:CPU:2"
    assert b2.control_inputs == [a2]
    assert g2.get_tensor_by_name("x:0").shape.as_list() == [3]
    assert b.op.control_inputs == [a.op]


@pytest.mark.parametrize(
    "value",
    [
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.array([1, -2, 3], np.int8),
        np.array([True, False]),
        np.array([1 + 2j, 3 - 1j], np.complex64),
        np.array([0.5, -1.25], ml_dtypes.bfloat16),
        np.array([1.5, 2.5], np.float16),
        np.array([7, 8], np.uint16),
        np.zeros((0, 3), np.float32),
        np.float32(2.5),
        np.array(np.nan, np.float32),
    ],
    ids=["f32", "i8", "bool", "c64", "bf16", "f16", "u16", "empty", "scalar", "nan"],
)
def test_const_values_of_every_dtype_roundtrip(value: np.ndarray) -> None:
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(value, name="c")
    g2, _ = roundtrip(g)
    v2 = g2.get_operation_by_name("c").attrs["value"]
    assert v2.dtype == c.op.attrs["value"].dtype
    np.testing.assert_array_equal(v2, c.op.attrs["value"])
    assert v2.flags.writeable  # a fresh array, not a view of the decoded bytes


def test_attr_encoding_of_python_values() -> None:
    from jaxsess._core.graph._graph_def import _Decoder, _encode

    g = tf.Graph()
    values = [
        None, True, 3, -2.5, "SAME", (1, (2, None)), [1, 2], {"a": (1,)},
        math.inf, -math.inf, tf.float32, tf.TensorShape([None, 3]), tf.TensorShape(None),
        P("data", None, ("a", "b")), np.int64(5),
    ]
    for v in values:
        enc = json.loads(json.dumps(_encode(v, g)))
        back = _Decoder({}, {}).decode(enc)
        assert type(back) is type(v), v
        if isinstance(v, np.generic):
            assert back == v and back.dtype == v.dtype
        else:
            assert back == v
    nan = _Decoder({}, {}).decode(json.loads(json.dumps(_encode(math.nan, g))))
    assert math.isnan(nan)


def test_random_ops_keep_their_seeds() -> None:
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(3)
        r = tf.random_normal([3, 2], name="r")
        u = tf.random_uniform([4], seed=7, name="u")
        d = tf.nn.dropout(tf.ones([8]), rate=0.5, name="d")
    g2, _ = roundtrip(g)
    results = []
    for graph in (g, g2):
        with tf.Session(graph=graph) as s:
            results.append([np.asarray(v) for v in s.run([r.name, u.name, d.name])] + [np.asarray(s.run(r.name))])
    for a, b in zip(*results, strict=True):
        np.testing.assert_array_equal(a, b)


def test_control_flow_and_gradients_roundtrip() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        s = tf.reduce_sum(x)
        c = tf.cond(s > 0.0, lambda: tf.square(x), lambda: x * -1.0, name="c")
        k = tf.case([(s > 100.0, lambda: s * 0.0), (s > 0.0, lambda: s + 1.0)], default=lambda: s - 1.0)
        i, acc = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a * 1.5 + tf.reduce_mean(x)), [0, 1.0])
        gx = tf.gradients(tf.reduce_sum(tf.sin(x) * c), x)[0]
        gdeep = tf.gradients(tf.reduce_sum(c), x)[0]
    g2, _ = roundtrip(g)
    for feed in (X, -X):
        run_both(g, g2, [c.name, k.name, i.name, acc.name, gx.name, gdeep.name], {"x:0": feed})


def test_dynamic_shape_ops_roundtrip() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        r = tf.reshape(x, [tf.shape(x)[0], 2, 2], name="r")
        z = tf.zeros([tf.shape(x)[0], 3], name="z")
        n = tf.range(tf.shape(x)[0], name="n")
        h = tf.range(0.5, tf.cast(tf.shape(x)[0], tf.float32), name="h")
    gd = g.as_graph_def()
    assert {"DynamicReshape", "DynamicFill", "DynamicRange"} <= {n.op for n in gd.node}
    g2, _ = roundtrip(g)
    run_both(g, g2, [r.name, z.name, n.name, h.name], {"x:0": X})


def mlp(opt: tf.train.Optimizer) -> tuple[tf.Graph, tf.Tensor]:
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        y = tf.placeholder(tf.int32, [None], name="y")
        with tf.variable_scope("mlp"):
            h = tf.layers.dense(x, 8, activation=tf.nn.relu, name="hidden")
            logits = tf.layers.dense(h, 3, name="out")
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
        opt.minimize(loss, name="train")
        tf.global_variables_initializer()
    return g, loss


@pytest.mark.parametrize("make_opt", [
    lambda: tf.train.GradientDescentOptimizer(0.1),
    lambda: tf.train.AdamOptimizer(0.01),
], ids=["sgd", "adam"])
def test_trained_model_graph_roundtrip(make_opt: object, tmp_path: object) -> None:
    g, loss = mlp(make_opt())  # type: ignore[operator]
    Y = np.array([0, 1, 2, 0, 1, 2], np.int32)
    feed = {"x:0": X, "y:0": Y}
    with tf.Session(graph=g) as s:
        s.run("init")
        for _ in range(5):
            s.run("train", feed)
        with g.as_default():
            saver = tf.train.Saver()
        path = saver.save(s, os.path.join(str(tmp_path), "model"))
        trained_loss = float(s.run(loss, feed))
        shapes = {v.op.name: v.shape.as_list() for v in g.get_collection("variables")}
        trainable = sorted(v.op.name for v in g.get_collection("trainable_variables"))
    g2 = tf.Graph()
    with g2.as_default():
        saver2 = tf.train.import_meta_graph(path + ".meta")  # the way tutorials resume training
        assert sorted(v.op.name for v in tf.trainable_variables()) == trainable
        assert {v.op.name: v.shape.as_list() for v in tf.global_variables()} == shapes
        init = tf.global_variables_initializer()
    with tf.Session(graph=g2) as s2:
        s2.run(init)  # initialise the imported variables in the new session
        for v in g2.get_collection("variables"):
            assert list(s2.run(v).shape) == shapes[v.op.name]
        saver2.restore(s2, path)
        assert float(s2.run("loss:0", feed)) == pytest.approx(trained_loss, rel=1e-6)
        before = float(s2.run("loss:0", feed))
        s2.run("train", feed)  # the imported train op still trains
        assert float(s2.run("loss:0", feed)) < before


def test_trained_model_continues_identically_after_import() -> None:
    g, loss = mlp(tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True))
    Y = np.array([0, 1, 2, 0, 1, 2], np.int32)
    feed = {"x:0": X, "y:0": Y}
    g2, _ = roundtrip(g)
    losses = []
    for graph in (g, g2):
        with tf.Session(graph=graph) as s:
            s.run("init")
            for _ in range(4):
                s.run("train", feed)
            losses.append(float(s.run("loss:0", feed)))
    assert losses[0] == pytest.approx(losses[1], rel=1e-6)


def test_sharding_attrs_roundtrip() -> None:
    g = tf.Graph()
    with g.as_default():
        tf.placeholder(tf.float32, [None, 4], name="x", sharding=P("data", None))
        tf.Variable(tf.zeros([4, 2]), name="v", sharding=P(None, "model"))
    g2, gd = roundtrip(g)
    assert g2.get_operation_by_name("x").attrs["sharding"] == P("data", None)
    assert g2.get_operation_by_name("v").attrs["sharding"] == P(None, "model")


def test_session_graph_def_property() -> None:
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0, name="one")
    with tf.Session(graph=g) as s:
        assert [n.name for n in s.graph_def.node] == ["one"]


# -- errors -----------------------------------------------------------------------------


def small_def() -> tf.GraphDef:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        tf.add(x, tf.constant([1.0, 2.0], name="c"), name="y")
    return through_bytes(g.as_graph_def())


def import_into_new(gd: object) -> None:
    with tf.Graph().as_default():
        import_graph_def(gd)  # type: ignore[arg-type]


def test_unknown_op_type_names_the_node() -> None:
    gd = small_def()
    gd.node[2].op = "FancyOp"
    with pytest.raises(ValueError, match=r"node 'y' \(op 'FancyOp'\).*'FancyOp' is not registered"):
        import_into_new(gd)


def _set_inputs(node, inputs) -> None:
    del node.input[:]
    node.input.extend(inputs)


def _private(gd: tf.GraphDef, i: int, text: str) -> None:
    gd.node[i].attr[PRIVATE_ATTRS].s = text.encode()


@pytest.mark.parametrize(
    ("mutate", "pattern"),
    [
        (lambda gd: _set_inputs(gd.node[2], ["nope:0", "c"]), r"node 'y'.*'nope:0'"),
        (lambda gd: _set_inputs(gd.node[2], ["x:5", "c"]), r"node 'y'.*does not have"),
        (lambda gd: _set_inputs(gd.node[2], ["^x", "c"]), r"node 'y'.*control inputs"),
        (lambda gd: gd.node[1].attr["value"].tensor.__setattr__("tensor_content", b"abc"), r"node 'c'.*needs 8"),
        (lambda gd: gd.node[1].attr["value"].tensor.__setattr__("dtype", 7), r"node 'y'.*string tensor"),
        (lambda gd: gd.node[1].attr["value"].tensor.tensor_shape.dim.add(size=-5), r"node 'c'"),
        (lambda gd: gd.node[0].attr["dtype"].__setattr__("s", b"float32"), r"node 'x'.*Placeholder"),
        (lambda gd: gd.node[0].attr.__delitem__("dtype"), r"node 'x'.*KeyError|node 'x'.*'dtype'"),
        (lambda gd: gd.node[0].__setattr__("name", "bad name!"), r"node 'bad name!' \(op 'Placeholder'\): invalid node name"),
        (lambda gd: gd.node.add().CopyFrom(gd.node[2]), r"node 'y'.*duplicate"),
        (lambda gd: gd.node[2].attr["_output_shapes"].list.shape[0].dim[0].__setattr__("size", 3),
         r"node 'y'.*recorded with shape"),
        (lambda gd: _set_inputs(gd.node[2], ["x"]), r"node 'y'.*do not fit the op"),
        (lambda gd: _private(gd, 1, '{"op": "Const", "attrs": {"value": {"pickle": "gASV"}}}'), r"node 'c'.*unknown attribute tag"),
        (lambda gd: _private(gd, 1, '{"op": "Const", "attrs": {"value": {"function": "os.system"}}}'), r"node 'c'.*allow-list"),
        (lambda gd: _private(gd, 0, '{"op": "Placeholder", "attrs": {"dtype": "float32", "shape": null}}'),
         r"node 'x'"),
        (lambda gd: _private(gd, 1, '{"op": "Const", "attrs": {"value": ' + '{"tuple": [' * 5000 + ']}' * 5000 + '}}'),
         r"node 'c'"),
        (lambda gd: _private(gd, 1, "not json"), r"node 'c'.*not JSON"),
        (lambda gd: _private(gd, 1, '{"op": "Nope", "attrs": {}}'), r"node 'c'.*'Nope' is not registered"),
        (lambda gd: _set_inputs(gd.node[0], ["y"]), r"cycle"),
    ],
    ids=[
        "missing-input", "bad-output-index", "control-before-data", "short-content", "string-dtype", "bad-dim",
        "dtype-attr-is-a-string", "missing-dtype", "bad-name", "duplicate", "wrong-recorded-shape",
        "too-few-inputs", "unknown-tag", "function-not-allowed", "bare-dtype-private", "deep-private",
        "private-not-json", "private-unknown-op", "cycle",
    ],
)
def test_malformed_defs_raise_value_error_naming_the_node(mutate: object, pattern: str) -> None:
    # includes repro import_graph_def_malformed_attr_not_valueerror.py (bare dtype, deep attribute)
    gd = small_def()
    mutate(gd)  # type: ignore[operator]
    with pytest.raises(ValueError, match=pattern):
        import_into_new(gd)


def test_not_a_graph_def_raises_type_error() -> None:
    with pytest.raises(TypeError, match="GraphDef"):
        import_into_new({"node": []})
    with pytest.raises(TypeError, match="GraphDef"):
        import_into_new(b"bytes")


def test_failed_import_leaves_earlier_nodes_but_raises() -> None:
    gd = small_def()
    gd.node[2].op = "FancyOp"
    g = tf.Graph()
    with g.as_default(), pytest.raises(ValueError):
        import_graph_def(gd, name="")
    # TF1 leaves a partial import too; the error is what matters. Nothing ran.
    assert [op.name for op in g.get_operations()] == ["x", "c"]


def test_unencodable_attr_raises_naming_the_op() -> None:
    optax = pytest.importorskip("optax")
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(tf.ones([2]), name="v")
        loss = tf.reduce_sum(tf.square(v))
        tf.train.OptaxOptimizer(lambda lr: optax.sgd(lr), 0.1).minimize(loss)
    with pytest.raises(ValueError, match=r"Cannot serialise node '.*' \(op 'OptaxUpdate'\): attribute 'spec'"):
        g.as_graph_def()


def test_loading_executes_no_code(monkeypatch: pytest.MonkeyPatch) -> None:
    import pickle

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("import_graph_def must not unpickle or eval")

    monkeypatch.setattr(pickle, "loads", boom)
    monkeypatch.setattr("builtins.eval", boom)
    monkeypatch.setattr("builtins.exec", boom)
    g, _ = mlp(tf.train.AdamOptimizer(0.01))
    g2, gd = roundtrip(g)
    # every op comes back (plus the Const nodes holding TF's constant inputs, such as reduction axes)
    assert {op.name for op in g.get_operations()} <= {op.name for op in g2.get_operations()}
    # (the helper nodes of ops written as several TF nodes, random_uniform's '/sub', '/mul'... are
    # read back as their op)
    assert len(g2.get_operations()) == len([n for n in gd.node if "_jaxsess_helper" not in n.attr])


def test_errors_are_value_errors_not_op_errors() -> None:
    gd = small_def()
    gd.node[2].op = "FancyOp"
    with pytest.raises(ValueError) as info:
        import_into_new(gd)
    assert not isinstance(info.value, errors.OpError)


def test_every_op_of_a_broad_graph_roundtrips_exactly() -> None:
    """Every op comes back with its type and exactly its attributes (TF's attrs, or the private ones)."""
    from jaxsess._core.graph._graph_def import _encode

    g, _ = mlp(tf.train.AdamOptimizer(0.01))
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4, 4, 3], name="img")
        k = tf.constant(np.ones((3, 3, 3, 2), np.float32))
        c = tf.nn.conv2d(x, k, strides=2, padding=[[0, 0], [1, 0], [0, 1], [0, 0]])
        p = tf.nn.max_pool(c, ksize=2, strides=1, padding="SAME")
        r = tf.reshape(p, [-1, 8])
        tf.concat([tf.transpose(r), tf.transpose(r)], axis=0)
        tf.squeeze(tf.expand_dims(r, 0), [0])
        tf.one_hot(tf.argmax(r, axis=1), 8)
        tf.pad(r, [[1, 0], [0, 2]], constant_values=3.0)
        tf.gather(r, [1, 0], axis=1)
        tf.identity(x[:, 1:, ::2, 0])
        tf.cond(tf.reduce_sum(r) > 0, lambda: r * 2.0, lambda: r)
        tf.while_loop(lambda i: i < 3, lambda i: i + 1, [0])
        tf.random_normal([2], seed=3)
        tf.summary.scalar("s", tf.reduce_mean(r))
        tf.summary.merge_all()
        tf.zeros([tf.shape(r)[0], 2])
    g2, gd = roundtrip(g)

    def enc(op: tf.Operation) -> str:
        return json.dumps({k: _encode(v, op.graph) for k, v in sorted(op.attrs.items())}, sort_keys=True)

    for op in g.get_operations():
        op2 = g2.get_operation_by_name(op.name)
        assert op2.type == op.type, op.name
        assert enc(op2) == enc(op), op.name
        assert [t.name for t in op2.inputs] == [t.name for t in op.inputs], op.name
    # most nodes are written in TF's own terms, with no private attributes
    private = [n for n in gd.node if PRIVATE_ATTRS in n.attr]
    assert len(private) < len(gd.node) / 4


def test_reverse_is_tf_reverse_v2_with_an_axis_input() -> None:
    """TF's ReverseV2 takes the axes as a second (const) input; a graph def from TF imports."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    tf.reverse(x, [1], name="y")
    gd = tf.get_default_graph().as_graph_def()
    node = next(n for n in gd.node if n.name == "y")
    assert node.op == "ReverseV2" and len(node.input) == 2 and PRIVATE_ATTRS not in node.attr
    tf.reset_default_graph()
    (y,) = import_graph_def(gd, return_elements=["y:0"], name="")
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {"x:0": np.arange(6, dtype=np.float32).reshape(2, 3)}),
                                      [[2, 1, 0], [5, 4, 3]])


def test_depthwise_and_conv3d_nodes_carry_tfs_attribute_lengths() -> None:
    # Real TF refuses DepthwiseConv2dNative/Conv3D nodes whose strides/dilations are not 4/5-lists
    # ("DepthwiseConv2D requires the stride attribute to contain 4 values"); checked against real
    # TF by hand: it imports these nodes and computes the same values.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 5, 5, 2], name="x")
        tf.nn.depthwise_conv2d(x, tf.ones([3, 3, 2, 2]), [1, 2, 2, 1], "SAME", name="dw")
        x3 = tf.placeholder(tf.float32, [1, 4, 4, 4, 1], name="x3")
        tf.nn.conv3d(x3, tf.ones([2, 2, 2, 1, 2]), [1, 2, 1, 1, 1], "SAME", name="c3")
    nodes = {n.name: n for n in g.as_graph_def().node}
    assert list(nodes["dw"].attr["strides"].list.i) == [1, 2, 2, 1]
    assert list(nodes["dw"].attr["dilations"].list.i) == [1, 1, 1, 1]
    assert list(nodes["c3"].attr["strides"].list.i) == [1, 2, 1, 1, 1]
    assert list(nodes["c3"].attr["dilations"].list.i) == [1, 1, 1, 1, 1]
    xv = np.arange(50, dtype=np.float32).reshape(1, 5, 5, 2)
    with tf.Graph().as_default():
        import_graph_def(g.as_graph_def(), name="")
        with tf.Session() as s:
            got = s.run("dw:0", {"x:0": xv})
    with tf.Session(graph=g) as s:
        np.testing.assert_array_equal(got, s.run("dw:0", {"x:0": xv}))
