"""Real TensorFlow reads the files jaxsess wrote (run with a Python that has ``tensorflow-cpu``).

    python tests/tf_oracle/check_our_files.py INFO.json

``INFO.json`` is written by ``tests/test_tf_files.py::write_our_files``: the
paths of a V2 checkpoint (with its ``checkpoint`` state file and ``.meta``),
a ``.pbtxt`` GraphDef, a frozen ``.pb``, an event file, a ``.meta`` with
random initializers, checkpoints written by TF's saver ops run in jaxsess, and the values
jaxsess computed. Prints ``all checks passed`` and exits 0 when TF agrees.
"""

from __future__ import annotations

import glob
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_eager_execution()


def source_value(prefix: str, name: str) -> np.ndarray:
    return tf.train.load_checkpoint(prefix).get_tensor(name)


def main(path: str) -> int:
    with open(path) as f:
        info = json.load(f)
    x = np.array(info["x"], np.float32)

    # checkpoint: the state file, the reader, and Saver.restore
    assert tf.train.latest_checkpoint(info["checkpoint_dir"]) == info["prefix"], tf.train.latest_checkpoint(info["checkpoint_dir"])
    reader = tf.train.load_checkpoint(info["prefix"])
    for name, value in info["variables"].items():
        np.testing.assert_allclose(reader.get_tensor(name), value, rtol=1e-6)
    assert reader.get_variable_to_dtype_map()["counts"] == tf.int32
    # a checkpoint saved over its own prefix (jaxsess's atomic save: two data shards, the second empty)
    assert tf.train.latest_checkpoint(info["checkpoint_dir_two_shards"]) == info["prefix_two_shards"]
    reader = tf.train.load_checkpoint(info["prefix_two_shards"])
    for name, value in info["variables"].items():
        np.testing.assert_allclose(reader.get_tensor(name), value, rtol=1e-6)

    # the .pbtxt GraphDef imports, its variables restore from our checkpoint, it computes our values
    g = tf.Graph()
    with g.as_default():
        with open(info["graph_pbtxt"]) as f:
            from google.protobuf import text_format

            gd = text_format.Parse(f.read(), tf.GraphDef())
        tf.import_graph_def(gd, name="")
        with tf.Session() as s:
            s.run(["dense/kernel/Assign", "dense/bias/Assign"])
            np.testing.assert_allclose(s.run("y:0", {"x:0": x}), info["y"], rtol=1e-5)

    # the meta graph + checkpoint: the tutorial way of resuming
    g = tf.Graph()
    with g.as_default():
        saver = tf.train.import_meta_graph(info["prefix"] + ".meta")
        with tf.Session() as s:
            saver.restore(s, info["prefix"])
            np.testing.assert_allclose(s.run("y:0", {"x:0": x}), info["y"], rtol=1e-5)
            np.testing.assert_allclose(s.run("m:0", {"x:0": x}), info["m"], rtol=1e-5)

    # the frozen .pb
    g = tf.Graph()
    with g.as_default():
        with open(info["frozen_pb"], "rb") as f:
            gd = tf.GraphDef.FromString(f.read())
        y, m = tf.import_graph_def(gd, return_elements=["y:0", "m:0"])
        with tf.Session() as s:
            yv, mv = s.run([y, m], {"import/x:0": x})
        np.testing.assert_allclose(yv, info["y"], rtol=1e-5)
        np.testing.assert_allclose(mv, info["m"], rtol=1e-5)

    # a graph of many op types: TF's op names, attributes and constant inputs, TF's values
    g = tf.Graph()
    with g.as_default():
        with open(info["ops_pb"], "rb") as f:
            tf.import_graph_def(tf.GraphDef.FromString(f.read()), name="")
        xin = np.linspace(-2, 2, 2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)
        with tf.Session() as s:
            got = s.run([n + ":0" for n in info["ops"]], {"x:0": xin})
        for (name, want), value in zip(info["ops"].items(), got):
            np.testing.assert_allclose(value, want, rtol=1e-5, atol=1e-6, err_msg=name)

    # a .meta whose variables start from seeded random initializers: TF's ops (RandomUniform with
    # T the shape's type...) that TF imports, and TF's Philox draws give jaxsess's initial values
    g = tf.Graph()
    with g.as_default():
        tf.train.import_meta_graph(info["random_meta"])
        ops = {op.type for op in g.get_operations()}
        assert {"RandomUniform", "RandomUniformInt", "RandomStandardNormal", "TruncatedNormal",
                "StatelessRandomGetKeyCounter", "StatelessRandomUniformV2", "StatelessRandomUniformIntV2",
                "StatelessRandomUniformFullIntV2", "StatelessMultinomial"} <= ops, ops
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            got = s.run({k: k + ":0" for k in info["random_init"]})
        for name, want in info["random_init"].items():
            np.testing.assert_array_equal(got[name], np.asarray(want, got[name].dtype), err_msg=name)

    # a checkpoint written by TF's own saver ops of a TF-written .meta, run in jaxsess
    # (SaveV2; the sharded saver's MergeV2Checkpoints): TF's reader and TF's restore op read it
    for key in ("saver_ops_prefix", "saver_ops_sharded_prefix"):
        ours = tf.train.load_checkpoint(info[key])
        source = tf.train.load_checkpoint(info[key.replace("prefix", "source")])
        names = sorted(source.get_variable_to_shape_map())
        assert sorted(ours.get_variable_to_shape_map()) == names, key
        for name in names:
            np.testing.assert_array_equal(ours.get_tensor(name), source.get_tensor(name), err_msg=f"{key}: {name}")
    g = tf.Graph()
    with g.as_default():
        saver = tf.train.import_meta_graph(info["saver_ops_meta"])
        with tf.Session() as s:
            sd = saver.saver_def
            s.run(sd.restore_op_name, {sd.filename_tensor_name: info["saver_ops_prefix"]})
            for v in tf.global_variables():
                np.testing.assert_array_equal(s.run(v), source_value(info["saver_ops_source"], v.op.name))

    # the event file
    (events,) = glob.glob(os.path.join(info["events"], "events.out.tfevents.*"))
    scalars = [(e.step, v.simple_value) for e in tf.train.summary_iterator(events) for v in e.summary.value]
    assert [s for s, _ in scalars] == [0, 1, 2], scalars
    np.testing.assert_allclose([v for _, v in scalars], info["losses"], rtol=1e-5)
    assert any(e.graph_def for e in tf.train.summary_iterator(events))

    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
