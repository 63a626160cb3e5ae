"""Writes real TensorFlow models, every way a TF user hands one over, with TF's outputs.

Run with real TensorFlow and tf_keras (the ``oracle`` extra), from the repository root::

    /work/tfvenv/bin/python tests/tf_oracle/make_model_fixtures.py            # the committed fixtures
    /work/tfvenv/bin/python tests/tf_oracle/make_model_fixtures.py --full DIR # full-size Keras apps (not committed)

It writes ``tests/fixtures/tf_models/``: each model's artifact (a frozen
``.pb``/``.pbtxt``, a ``.meta`` + checkpoint, a SavedModel directory, a Keras
``.h5``), its goldens ``NAME.npz`` (``input`` or the named feeds, and TF's
outputs ``out0``, ``out1``... computed by TF on a fixed random input), and
``models.json``: one entry per model (kind, file, feeds, fetches, tolerance).
Every artifact is small (<= 2 MB; weights random with fixed seeds,
``weights=None``). With ``--full DIR`` it writes the full-size Keras
applications (ResNet50, InceptionV3, DenseNet121, MobileNetV2,
EfficientNetB0, Xception, NASNetMobile, ConvNeXtTiny; logits out, random
BatchNorm statistics), frozen at batch 1, into DIR with the same layout;
check one with ``python tests/tf_models_runner.py NAME DIR``.

Kinds (``models.json``):

* ``frozen``: ``tf.compat.v1.import_graph_def`` of a frozen ``GraphDef``,
  run ``fetches`` with ``feeds`` (tensor names);
* ``meta_train``: ``import_meta_graph`` + ``Saver.restore``, then the
  graph's own ``train_op`` run ``steps`` times on the fixed batch: the
  goldens are the losses TF printed before each step and after the last;
* ``saved_model_tf1``: ``tf.compat.v1.saved_model.loader.load`` with tags
  ``serve``, run the ``serving_default`` signature;
* ``saved_model_tf2``: ``tf.saved_model.load``, call
  ``signatures['serving_default'](**feeds)``;
* ``keras``: ``keras.models.load_model`` then ``predict`` on ``input``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ["CUDA_VISIBLE_DEVICES"] = ""
os.environ["TF_USE_LEGACY_KERAS"] = "1"
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"  # TF's reference kernels: the goldens do not depend on the CPU

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "tf_models"
MAX_ARTIFACT = 2 * 1024 * 1024
BATCH = 2


def _input(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape).astype(np.float32)


def _seed(n: int) -> None:
    tf.random.set_seed(n)
    np.random.seed(n)
    keras.utils.set_random_seed(n)


def _randomize_bn(model: Any, seed: int) -> None:
    """Non-trivial moving statistics and affine params for every BatchNorm (fresh ones are 0/1)."""
    rs = np.random.RandomState(seed)
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            ws = layer.get_weights()
            new = []
            for w, name in zip(ws, [v.name for v in layer.weights]):
                if "moving_variance" in name:
                    new.append(rs.uniform(0.5, 1.5, w.shape).astype(np.float32))
                elif "gamma" in name:
                    new.append(rs.uniform(0.8, 1.2, w.shape).astype(np.float32))
                else:
                    new.append(rs.uniform(-0.2, 0.2, w.shape).astype(np.float32))
            layer.set_weights(new)


def _freeze_keras(model: Any, shape: tuple[int, ...], lower_control_flow: bool = True) -> tuple[Any, list[str], list[str]]:
    spec = tf.TensorSpec((None, *shape[1:]), tf.float32, name="input")
    fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(spec)
    frozen = convert_variables_to_constants_v2(fn, lower_control_flow=lower_control_flow)
    gd = frozen.graph.as_graph_def()
    return gd, [t.name for t in frozen.inputs], [t.name for t in frozen.outputs], frozen


class Writer:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.entries: list[dict[str, Any]] = []

    def size(self, path: Path) -> int:
        if path.is_dir():
            return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        return path.stat().st_size

    def add(self, name: str, kind: str, file: str, goldens: dict[str, np.ndarray], *, check_size: bool = True,
            **info: Any) -> None:
        size = self.size(self.out / file)
        if check_size and size > MAX_ARTIFACT:
            raise SystemExit(f"{name}: artifact {file} is {size} bytes, over {MAX_ARTIFACT}")
        np.savez_compressed(self.out / f"{name}.npz", **goldens)
        entry = {"name": name, "kind": kind, "file": file, "bytes": size, **info}
        self.entries.append(entry)
        print(f"{name:24s} {kind:16s} {size / 1024:8.1f} KiB", flush=True)

    def frozen_keras(self, name: str, model: Any, shape: tuple[int, ...], rtol: float, pbtxt: bool = False,
                     lower_control_flow: bool = True, **info: Any) -> None:
        gd, ins, outs, frozen = _freeze_keras(model, shape, lower_control_flow)
        x = _input(shape, seed=1)
        want = [np.asarray(t) for t in tf.nest.flatten(frozen(tf.constant(x)))]
        ref = model(x, training=False)
        np.testing.assert_allclose(want[0], np.asarray(tf.nest.flatten(ref)[0]), rtol=1e-5, atol=1e-5)
        file = f"{name}.pbtxt" if pbtxt else f"{name}.pb"
        if pbtxt:
            tf.io.write_graph(gd, str(self.out), file, as_text=True)
        else:
            (self.out / file).write_bytes(gd.SerializeToString())
        feeds = {ins[0]: "input"}
        goldens = {"input": x, **{f"out{i}": w for i, w in enumerate(want)}}
        self.add(name, "frozen", file, goldens, feeds=feeds, fetches=outs, rtol=rtol,
                 ops=sorted({n.op for n in gd.node} | {n.op for f in gd.library.function for n in f.node_def}),
                 **info)

    def write_manifest(self) -> None:
        total = sum(e["bytes"] for e in self.entries)
        (self.out / "models.json").write_text(json.dumps({"models": self.entries, "total_bytes": total}, indent=1) + "\n")
        print(f"total {total / 1024 / 1024:.2f} MiB")


# -- Keras-style blocks (the layers of the big applications, at small sizes) ------------------------------


def conv_bn(x: Any, filters: int, k: int, strides: int = 1, act: str | None = "relu", name: str = "") -> Any:
    L = keras.layers
    x = L.Conv2D(filters, k, strides=strides, padding="same", use_bias=False, name=f"{name}_conv")(x)
    x = L.BatchNormalization(epsilon=1.001e-5, name=f"{name}_bn")(x)
    return L.Activation(act, name=f"{name}_{act}")(x) if act else x


def resnet_small() -> Any:
    L = keras.layers
    inp = keras.Input((32, 32, 3))
    x = L.ZeroPadding2D(3)(inp)
    x = L.Conv2D(16, 7, strides=2, name="conv1_conv")(x)
    x = L.BatchNormalization(epsilon=1.001e-5)(x)
    x = L.Activation("relu")(x)
    x = L.ZeroPadding2D(1)(x)
    x = L.MaxPooling2D(3, strides=2)(x)
    for i, (filters, stride) in enumerate([(16, 1), (32, 2)]):
        shortcut = conv_bn(x, 4 * filters, 1, stride, act=None, name=f"b{i}_0")
        y = conv_bn(x, filters, 1, stride, name=f"b{i}_1")
        y = conv_bn(y, filters, 3, 1, name=f"b{i}_2")
        y = conv_bn(y, 4 * filters, 1, 1, act=None, name=f"b{i}_3")
        x = L.Activation("relu")(L.Add()([shortcut, y]))
    x = L.GlobalAveragePooling2D()(x)
    return keras.Model(inp, L.Dense(10, activation="softmax")(x), name="resnet_small")


def inception_small() -> Any:
    L = keras.layers
    inp = keras.Input((29, 29, 3))
    x = conv_bn(inp, 16, 3, 2, name="stem")  # InceptionV3's stem: valid conv via padding in conv_bn is same
    x = L.MaxPooling2D(3, strides=2)(x)
    b1 = conv_bn(x, 8, 1, name="b1")
    b5 = conv_bn(conv_bn(x, 6, 1, name="b5a"), 8, 5, name="b5b")
    b3 = conv_bn(conv_bn(conv_bn(x, 8, 1, name="b3a"), 12, 3, name="b3b"), 12, 3, name="b3c")
    bp = conv_bn(L.AveragePooling2D(3, strides=1, padding="same")(x), 4, 1, name="bp")
    x = L.Concatenate(axis=3)([b1, b5, b3, bp])
    b7 = conv_bn(conv_bn(x, 8, (1, 7), name="b7a"), 8, (7, 1), name="b7b")
    x = L.Concatenate(axis=3)([x, b7, L.MaxPooling2D(3, strides=1, padding="same")(x)])
    x = L.GlobalAveragePooling2D()(x)
    x = L.Dropout(0.2)(x)
    return keras.Model(inp, L.Dense(10, activation="softmax")(x), name="inception_small")


def densenet_small() -> Any:
    L = keras.layers
    inp = keras.Input((32, 32, 3))
    x = L.ZeroPadding2D(3)(inp)
    x = L.Conv2D(16, 7, strides=2, use_bias=False)(x)
    x = L.BatchNormalization(epsilon=1.001e-5)(x)
    x = L.Activation("relu")(x)
    x = L.ZeroPadding2D(1)(x)
    x = L.MaxPooling2D(3, strides=2)(x)
    for block in range(2):
        for _ in range(3):
            y = L.BatchNormalization(epsilon=1.001e-5)(x)
            y = L.Activation("relu")(y)
            y = L.Conv2D(16, 1, use_bias=False)(y)
            y = L.BatchNormalization(epsilon=1.001e-5)(y)
            y = L.Activation("relu")(y)
            y = L.Conv2D(8, 3, padding="same", use_bias=False)(y)
            x = L.Concatenate(axis=3)([x, y])
        if block == 0:
            x = L.BatchNormalization(epsilon=1.001e-5)(x)
            x = L.Activation("relu")(x)
            x = L.Conv2D(int(x.shape[-1]) // 2, 1, use_bias=False)(x)
            x = L.AveragePooling2D(2, strides=2)(x)
    x = L.BatchNormalization(epsilon=1.001e-5)(x)
    x = L.Activation("relu")(x)
    x = L.GlobalAveragePooling2D()(x)
    return keras.Model(inp, L.Dense(10, activation="softmax")(x), name="densenet_small")


def efficientnet_small() -> Any:
    L = keras.layers
    inp = keras.Input((32, 32, 3))
    x = L.Rescaling(1.0 / 255.0)(inp)
    x = L.Normalization(axis=-1, mean=[0.485, 0.456, 0.406], variance=[0.229 ** 2, 0.224 ** 2, 0.225 ** 2])(x)
    x = L.ZeroPadding2D(((0, 1), (0, 1)))(x)
    x = L.Conv2D(16, 3, strides=2, padding="valid", use_bias=False)(x)
    x = L.BatchNormalization()(x)
    x = L.Activation("swish")(x)
    for expand, out, stride, k in [(1, 16, 1, 3), (4, 24, 2, 5)]:
        inputs = x
        filters = int(x.shape[-1]) * expand
        if expand != 1:
            x = L.Conv2D(filters, 1, padding="same", use_bias=False)(x)
            x = L.BatchNormalization()(x)
            x = L.Activation("swish")(x)
        if stride == 2:
            pad = ((k - 1) // 2, (k - 1) // 2)
            x = L.ZeroPadding2D((pad, pad))(x)
        x = L.DepthwiseConv2D(k, strides=stride, padding="valid" if stride == 2 else "same", use_bias=False)(x)
        x = L.BatchNormalization()(x)
        x = L.Activation("swish")(x)
        se = L.GlobalAveragePooling2D()(x)
        se = L.Reshape((1, 1, filters))(se)
        se = L.Conv2D(max(1, filters // 4), 1, activation="swish")(se)
        se = L.Conv2D(filters, 1, activation="sigmoid")(se)
        x = L.multiply([x, se])
        x = L.Conv2D(out, 1, use_bias=False)(x)
        x = L.BatchNormalization()(x)
        if stride == 1 and int(inputs.shape[-1]) == out:
            x = L.Dropout(0.2, noise_shape=(None, 1, 1, 1))(x)
            x = L.add([x, inputs])
    x = L.GlobalAveragePooling2D()(x)
    return keras.Model(inp, L.Dense(10, activation="softmax")(x), name="efficientnet_small")


def xception_small() -> Any:
    L = keras.layers
    inp = keras.Input((32, 32, 3))
    x = L.Conv2D(16, 3, strides=2, use_bias=False)(inp)
    x = L.BatchNormalization()(x)
    x = L.Activation("relu")(x)
    for filters in (32, 48):
        residual = L.Conv2D(filters, 1, strides=2, padding="same", use_bias=False)(x)
        residual = L.BatchNormalization()(residual)
        x = L.Activation("relu")(x)
        x = L.SeparableConv2D(filters, 3, padding="same", use_bias=False)(x)
        x = L.BatchNormalization()(x)
        x = L.Activation("relu")(x)
        x = L.SeparableConv2D(filters, 3, padding="same", use_bias=False)(x)
        x = L.BatchNormalization()(x)
        x = L.MaxPooling2D(3, strides=2, padding="same")(x)
        x = L.add([x, residual])
    x = L.GlobalAveragePooling2D()(x)
    return keras.Model(inp, L.Dense(10, activation="softmax")(x), name="xception_small")


class LayerScale(keras.layers.Layer):
    """ConvNeXt's layer scale: a learned per-channel multiplier."""

    def __init__(self, dim: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.dim = dim

    def build(self, _shape: Any) -> None:
        self.gamma = self.add_weight("gamma", (self.dim,), initializer=keras.initializers.RandomUniform(0.1, 1.0))

    def call(self, x: Any) -> Any:
        return x * self.gamma


def convnext_small() -> Any:
    L = keras.layers
    inp = keras.Input((32, 32, 3))
    x = L.Conv2D(24, 4, strides=4)(inp)
    x = L.LayerNormalization(epsilon=1e-6)(x)
    for dim in (24, 48):
        if dim != 24:
            x = L.LayerNormalization(epsilon=1e-6)(x)
            x = L.Conv2D(dim, 2, strides=2)(x)
        for _ in range(2):
            y = L.DepthwiseConv2D(7, padding="same")(x)
            y = L.LayerNormalization(epsilon=1e-6)(y)
            y = L.Dense(4 * dim)(y)
            y = L.Activation("gelu")(y)
            y = L.Dense(dim)(y)
            y = LayerScale(dim)(y)
            x = L.add([x, y])
    x = L.GlobalAveragePooling2D()(x)
    x = L.LayerNormalization(epsilon=1e-6)(x)
    return keras.Model(inp, L.Dense(10)(x), name="convnext_small")


def convnext_grouped() -> Any:
    """ConvNeXt's block as tf_keras' ``applications.ConvNeXt*`` builds it: the depthwise 7x7 is a
    ``Conv2D(groups=channels)`` (TF writes a grouped ``Conv2D``), not a ``DepthwiseConv2D``."""
    L = keras.layers
    inp = keras.Input((16, 16, 3))
    x = L.Conv2D(16, 4, strides=4)(inp)
    x = L.LayerNormalization(epsilon=1e-6)(x)
    y = L.Conv2D(16, 7, padding="same", groups=16)(x)
    y = L.LayerNormalization(epsilon=1e-6)(y)
    y = L.Dense(64)(y)
    y = L.Activation("gelu")(y)
    y = L.Dense(16)(y)
    x = L.add([x, LayerScale(16)(y)])
    x = L.GlobalAveragePooling2D()(x)
    return keras.Model(inp, L.Dense(10)(x), name="convnext_grouped")


def transformer_block() -> Any:
    L = keras.layers
    inp = keras.Input((8, 16))
    att = L.MultiHeadAttention(num_heads=2, key_dim=8)(inp, inp)
    x = L.LayerNormalization(epsilon=1e-6)(inp + att)
    y = L.Dense(32)(x)
    y = keras.activations.gelu(y, approximate=False)
    y = L.Dense(16)(y)
    x = L.LayerNormalization(epsilon=1e-6)(x + y)
    return keras.Model(inp, x, name="transformer_block")


def lstm_keras() -> Any:
    L = keras.layers
    inp = keras.Input((6, 4))
    x = L.LSTM(8, return_sequences=True)(inp)
    x = L.LSTM(8)(x)
    return keras.Model(inp, L.Dense(3)(x), name="lstm_keras")


# -- the writers ---------------------------------------------------------------------------------------------


def keras_frozen(w: Writer) -> None:
    apps = keras.applications
    _seed(1)
    m = apps.MobileNetV2(input_shape=(32, 32, 3), alpha=0.35, weights=None, classes=10)
    _randomize_bn(m, 1)
    w.frozen_keras("mobilenet_v2_035", m, (BATCH, 32, 32, 3), 1e-3, deep=True)
    _seed(2)
    m = apps.MobileNetV3Small(input_shape=(32, 32, 3), alpha=0.35, weights=None, classes=10,
                              include_preprocessing=True)
    _randomize_bn(m, 2)
    w.frozen_keras("mobilenet_v3_small", m, (BATCH, 32, 32, 3), 1e-3, deep=True)
    for i, (name, make, shape) in enumerate([
            ("resnet_small", resnet_small, (BATCH, 32, 32, 3)),
            ("inception_small", inception_small, (BATCH, 29, 29, 3)),
            ("densenet_small", densenet_small, (BATCH, 32, 32, 3)),
            ("efficientnet_small", efficientnet_small, (BATCH, 32, 32, 3)),
            ("xception_small", xception_small, (BATCH, 32, 32, 3)),
            ("convnext_small", convnext_small, (BATCH, 32, 32, 3)),
    ]):
        _seed(10 + i)
        m = make()
        _randomize_bn(m, 10 + i)
        w.frozen_keras(name, m, shape, 1e-3, deep=True, pbtxt=name == "resnet_small")
    _seed(20)
    w.frozen_keras("transformer_block", transformer_block(), (BATCH, 8, 16), 1e-4)
    _seed(21)
    # control flow v2 (While + function library) kept: lower_control_flow=False
    w.frozen_keras("lstm_v2", lstm_keras(), (BATCH, 6, 4), 1e-4, lower_control_flow=False)


def grouped_conv(w: Writer) -> None:
    _seed(23)
    w.frozen_keras("convnext_grouped", convnext_grouped(), (BATCH, 16, 16, 3), 1e-3, deep=True)


def lstm_v1(w: Writer) -> None:
    """tf.compat.v1 dynamic_rnn (control flow v1: Switch/Merge/Enter/Exit/NextIteration/LoopCond,
    TensorArrayV3), frozen with graph_util.convert_variables_to_constants."""
    v1 = tf.compat.v1
    v1.disable_control_flow_v2()  # TF2 builds v2 While even in graph mode unless told
    g = tf.Graph()
    with g.as_default():
        v1.set_random_seed(3)
        x = v1.placeholder(tf.float32, [None, 6, 4], name="input")
        cell = v1.nn.rnn_cell.LSTMCell(8, initializer=v1.random_uniform_initializer(-0.5, 0.5, seed=3))
        outs, state = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        w_out = v1.get_variable("out_w", [8, 3], initializer=v1.random_normal_initializer(seed=4))
        logits = tf.identity(tf.matmul(state.h, w_out), name="logits")
        seq = tf.identity(outs, name="sequence")
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            gd = v1.graph_util.convert_variables_to_constants(sess, g.as_graph_def(), ["logits", "sequence"])
            xv = _input((BATCH, 6, 4), seed=1)
            lv, sv = sess.run([logits, seq], {x: xv})
    v1.enable_control_flow_v2()
    ops = {n.op for n in gd.node}
    assert "Enter" in ops and "TensorArrayV3" in ops and not gd.library.function, sorted(ops)
    (w.out / "lstm_v1.pb").write_bytes(gd.SerializeToString())
    w.add("lstm_v1", "frozen", "lstm_v1.pb", {"input": xv, "out0": lv, "out1": sv},
          feeds={"input:0": "input"}, fetches=["logits:0", "sequence:0"], rtol=1e-4,
          ops=sorted(ops))


def tf1_cnn(x: Any, v1: Any) -> Any:
    init = v1.glorot_uniform_initializer(seed=5)
    h = v1.layers.conv2d(x, 8, 3, padding="same", activation=tf.nn.relu, kernel_initializer=init, name="conv1")
    h = v1.layers.max_pooling2d(h, 2, 2)
    h = v1.layers.conv2d(h, 16, 3, padding="same", activation=tf.nn.relu, kernel_initializer=init, name="conv2")
    h = v1.layers.max_pooling2d(h, 2, 2)
    h = v1.layers.flatten(h)
    h = v1.layers.dense(h, 32, activation=tf.nn.relu, kernel_initializer=init, name="fc1")
    return v1.layers.dense(h, 10, kernel_initializer=init, name="logits")


def tf1_training(w: Writer) -> None:
    """A TF1 CNN training graph: .meta + checkpoint after 3 Adam steps; goldens: the losses of 2 more."""
    v1 = tf.compat.v1
    d = w.out / "tf1_train"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir()
    rs = np.random.RandomState(7)
    xb = rs.uniform(0, 1, (8, 12, 12, 1)).astype(np.float32)
    yb = rs.randint(0, 10, (8,)).astype(np.int64)
    g = tf.Graph()
    with g.as_default():
        v1.set_random_seed(5)
        x = v1.placeholder(tf.float32, [None, 12, 12, 1], name="x")
        y = v1.placeholder(tf.int64, [None], name="y")
        logits = tf1_cnn(x, v1)
        loss = tf.reduce_mean(v1.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
        step = v1.train.get_or_create_global_step()
        train_op = v1.train.AdamOptimizer(1e-3).minimize(loss, global_step=step, name="train_op")
        v1.add_to_collection("train_op", train_op)
        saver = v1.train.Saver()
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(3):
                sess.run(train_op, {x: xb, y: yb})
            saver.save(sess, str(d / "model"), global_step=step)
            losses = []
            for _ in range(2):
                lv, _ = sess.run([loss, train_op], {x: xb, y: yb})
                losses.append(lv)
            losses.append(sess.run(loss, {x: xb, y: yb}))
            logits_after = sess.run(logits, {x: xb})
    w.add("tf1_train", "meta_train", "tf1_train", {"x": xb, "y": yb, "losses": np.array(losses, np.float32),
                                                    "logits_after": logits_after},
          meta="tf1_train/model-3.meta", checkpoint="tf1_train/model-3", feeds={"x:0": "x", "y:0": "y"},
          loss="loss:0", train_op="train_op", logits=logits.name, steps=2, rtol=1e-4,
          ops=sorted({n.op for n in g.as_graph_def().node}))


def tf1_saved_model(w: Writer) -> None:
    v1 = tf.compat.v1
    d = w.out / "tf1_saved_model"
    shutil.rmtree(d, ignore_errors=True)
    g = tf.Graph()
    with g.as_default():
        v1.set_random_seed(6)
        x = v1.placeholder(tf.float32, [None, 12, 12, 1], name="images")
        logits = tf1_cnn(x, v1)
        probs = tf.nn.softmax(logits, name="probs")
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            xv = _input((BATCH, 12, 12, 1), seed=2)
            pv, lv = sess.run([probs, logits], {x: xv})
            v1.saved_model.simple_save(sess, str(d), inputs={"images": x}, outputs={"probs": probs, "logits": logits})
    w.add("tf1_saved_model", "saved_model_tf1", "tf1_saved_model", {"images": xv, "probs": pv, "logits": lv},
          tags=["serve"], signature="serving_default", inputs=["images"], outputs=["logits", "probs"], rtol=1e-4)


class Scorer(tf.Module):
    """A tf.Module with variables and one signature (TF2's SavedModel)."""

    def __init__(self) -> None:
        super().__init__()
        rs = np.random.RandomState(8)
        self.w1 = tf.Variable(rs.normal(0, 0.5, (5, 16)).astype(np.float32), name="w1")
        self.b1 = tf.Variable(rs.normal(0, 0.1, (16,)).astype(np.float32), name="b1")
        self.w2 = tf.Variable(rs.normal(0, 0.5, (16, 3)).astype(np.float32), name="w2")
        self.scale = tf.Variable(2.0, name="scale")

    @tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32, name="x")])
    def score(self, x: Any) -> Any:
        h = tf.nn.tanh(tf.matmul(x, self.w1) + self.b1)
        logits = tf.matmul(h, self.w2) * self.scale
        return {"logits": logits, "probs": tf.nn.softmax(logits), "top": tf.argmax(logits, axis=-1)}


def tf2_saved_models(w: Writer) -> None:
    d = w.out / "tf2_saved_model"
    shutil.rmtree(d, ignore_errors=True)
    m = Scorer()
    tf.saved_model.save(m, str(d), signatures={"serving_default": m.score})
    xv = _input((BATCH, 5), seed=3)
    out = m.score(tf.constant(xv))
    w.add("tf2_saved_model", "saved_model_tf2", "tf2_saved_model",
          {"x": xv, **{k: np.asarray(v) for k, v in out.items()}},
          signature="serving_default", inputs=["x"], outputs=sorted(out), rtol=1e-4)
    # control flow v2 in a SavedModel: a Keras LSTM's While, through the function library
    d = w.out / "lstm_v2_saved_model"
    shutil.rmtree(d, ignore_errors=True)
    _seed(22)
    lstm = lstm_keras()
    spec = tf.TensorSpec([None, 6, 4], tf.float32, name="seq")
    serve = tf.function(lambda seq: {"pred": lstm(seq, training=False)}).get_concrete_function(spec)
    mod = tf.Module()
    mod.model = lstm
    tf.saved_model.save(mod, str(d), signatures={"serving_default": serve})
    xv = _input((BATCH, 6, 4), seed=4)
    w.add("lstm_v2_saved_model", "saved_model_tf2", "lstm_v2_saved_model",
          {"seq": xv, "pred": np.asarray(serve(tf.constant(xv))["pred"])},
          signature="serving_default", inputs=["seq"], outputs=["pred"], rtol=1e-4)


def keras_files(w: Writer) -> None:
    L = keras.layers

    def small_cnn() -> Any:
        inp = keras.Input((12, 12, 1))
        x = L.Conv2D(8, 3, activation="relu")(inp)
        x = L.BatchNormalization()(x)
        x = L.MaxPooling2D()(x)
        x = L.Flatten()(x)
        x = L.Dense(16, activation="relu")(x)
        return keras.Model(inp, L.Dense(4, activation="softmax")(x), name="small_cnn")

    _seed(30)
    m = small_cnn()
    _randomize_bn(m, 30)
    m.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    xv = _input((BATCH, 12, 12, 1), seed=5)
    m.save(str(w.out / "keras_cnn.h5"))
    w.add("keras_h5", "keras", "keras_cnn.h5", {"input": xv, "out0": m.predict(xv, verbose=0)}, rtol=1e-4)
    _seed(31)
    m = small_cnn()
    _randomize_bn(m, 31)
    d = w.out / "keras_saved_model"
    shutil.rmtree(d, ignore_errors=True)
    m.save(str(d), save_format="tf")
    w.add("keras_saved_model", "keras", "keras_saved_model", {"input": xv, "out0": m.predict(xv, verbose=0)},
          rtol=1e-4, signature="serving_default")


FULL_APPS = ["ResNet50", "InceptionV3", "DenseNet121", "MobileNetV2", "EfficientNetB0", "Xception", "NASNetMobile",
             "ConvNeXtTiny"]


def full(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    w = Writer(out)
    for i, name in enumerate(FULL_APPS):
        _seed(100 + i)
        # logits out (a fresh model's softmax over 1000 classes is uniform to 1e-6: it would check
        # nothing), and BatchNorm statistics that are not the identity
        m = getattr(keras.applications, name)(weights=None, classifier_activation=None)
        _randomize_bn(m, 100 + i)
        shape = (1, *m.input_shape[1:])
        gd, ins, outs, frozen = _freeze_keras(m, shape)
        x = _input(shape, seed=1)
        want = np.asarray(frozen(tf.constant(x))[0])
        (out / f"{name}.pb").write_bytes(gd.SerializeToString())
        w.add(name, "frozen", f"{name}.pb", {"input": x, "out0": want}, check_size=False,
              feeds={ins[0]: "input"}, fetches=outs, rtol=1e-3, deep=True, ops=sorted({n.op for n in gd.node}))
    w.write_manifest()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--full", metavar="DIR", help="write the full-size Keras applications into DIR instead")
    p.add_argument("--only", help="comma-separated writer names (keras_frozen,grouped_conv,lstm_v1,...): only "
                   "those models are rewritten, the manifest keeps the others")
    args = p.parse_args(argv)
    if args.full:
        full(Path(args.full))
        return
    OUT.mkdir(parents=True, exist_ok=True)
    w = Writer(OUT)
    writers = (keras_frozen, grouped_conv, lstm_v1, tf1_training, tf1_saved_model, tf2_saved_models, keras_files)
    only = set(args.only.split(",")) if args.only else None
    for fn in writers:
        if only is None or fn.__name__ in only:
            fn(w)
    if only is not None:  # the other models' entries stay as they are
        old = json.loads((OUT / "models.json").read_text())["models"]
        mine = {e["name"] for e in w.entries}
        order = [e["name"] for e in old] + [e["name"] for e in w.entries if e["name"] not in {o["name"] for o in old}]
        merged = {e["name"]: e for e in old} | {e["name"]: e for e in w.entries}
        w.entries = [merged[n] for n in order]
        print(f"rewrote {sorted(mine)}; kept {len(w.entries) - len(mine)} others")
    w.write_manifest()
    total = sum(e["bytes"] for e in w.entries)
    if total > 15 * 1024 * 1024:
        sys.exit(f"fixtures total {total} bytes, over 15 MB")


if __name__ == "__main__":
    main()
