"""Real TensorFlow files both ways, with TensorFlow absent.

The fixtures in ``tests/fixtures/tf/`` were written by real TF
(``make_fixtures.py``, with the values TF computed in ``values.json``);
these tests read them with jaxsess only. The other direction (files jaxsess
writes, read by real TF) is ``test_files_read_by_real_tensorflow`` below,
run when ``JAXSESS_TF_PYTHON`` names an interpreter with ``tensorflow-cpu``;
TensorBoard's ``EventAccumulator`` reads our event files here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from tensorboard.compat.proto import meta_graph_pb2

import jaxsess as tf
from jaxsess import errors
from jaxsess._core import _tfproto
from jaxsess._core.graph._graph_def import read_graph_def

FIXTURES = Path(__file__).parent / "fixtures" / "tf"
VALUES = json.loads((FIXTURES / "values.json").read_text())
ORACLE = Path(__file__).parent / "tf_oracle" / "check_our_files.py"


def test_tensorflow_is_not_imported() -> None:
    assert "tensorflow" not in sys.modules


# -- frozen GraphDef ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["frozen_mlp.pb", "frozen_mlp.pbtxt"])
def test_frozen_tf_graph_runs_with_tf_values(name: str) -> None:
    gd = read_graph_def(str(FIXTURES / name))
    assert {n.op for n in gd.node} == set(VALUES["frozen"]["ops"])
    with tf.Graph().as_default() as g:
        probs, mean = tf.import_graph_def(gd, return_elements=["probs:0", "mean_prob:0"])
        assert probs.name == "import/probs:0" and mean.shape.as_list() == [None, 1]
        with tf.Session(graph=g) as s:
            p, m = (np.asarray(v) for v in s.run([probs, mean], {"import/input:0": np.array(VALUES["frozen"]["input"], np.float32)}))
    np.testing.assert_allclose(p, VALUES["frozen"]["probs"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m, VALUES["frozen"]["mean_prob"], rtol=1e-5, atol=1e-6)
    assert "tensorflow" not in sys.modules


def test_frozen_graph_input_map_and_binary_text_agree() -> None:
    binary = read_graph_def(str(FIXTURES / "frozen_mlp.pb"))
    text = text_format.Parse((FIXTURES / "frozen_mlp.pbtxt").read_text(), tf.GraphDef())
    assert binary == text
    x = np.array(VALUES["frozen"]["input"], np.float32)
    with tf.Graph().as_default() as g:
        inp = tf.constant(x)
        (probs,) = tf.import_graph_def(binary, input_map={"input:0": inp}, return_elements=["probs:0"], name="m")
        with tf.Session(graph=g) as s:
            np.testing.assert_allclose(np.asarray(s.run(probs)), VALUES["frozen"]["probs"], rtol=1e-5, atol=1e-6)


# -- V2 checkpoints -----------------------------------------------------------------------------


def test_tf_checkpoint_reader_values_dtypes_shapes() -> None:
    reader = tf.train.load_checkpoint(str(FIXTURES / "ckpt"))
    want = VALUES["checkpoint"]
    assert reader.get_variable_to_shape_map() == {k: v["shape"] for k, v in want.items()}
    assert {k: d.name for k, d in reader.get_variable_to_dtype_map().items()} == {k: v["dtype"] for k, v in want.items()}
    for k, v in want.items():
        got = reader.get_tensor(k)
        assert got.dtype.name == v["dtype"] and list(got.shape) == v["shape"]
        np.testing.assert_array_equal(got, np.array(v["value"], dtype=v["dtype"]))
    assert tf.train.list_variables(str(FIXTURES / "ckpt"))[0] == ("big", [2])
    assert tf.train.latest_checkpoint(str(FIXTURES / "ckpt")) == str(FIXTURES / "ckpt" / "model-3")
    with pytest.raises(errors.NotFoundError, match="nope"):
        reader.get_tensor("nope")


def test_tf_meta_graph_and_checkpoint_resume_in_jaxsess(tmp_path: Path) -> None:
    # the tutorial way: import_meta_graph + restore, on files real TF wrote
    ckpt = tmp_path / "ckpt"
    shutil.copytree(FIXTURES / "ckpt", ckpt)
    x = np.array(VALUES["checkpoint_pred"]["x"], np.float32)
    with tf.Graph().as_default() as g:
        saver = tf.train.import_meta_graph(str(ckpt / "model-3.meta"))
        assert saver is not None
        assert sorted(v.op.name for v in tf.trainable_variables()) == ["big", "counts", "dense/bias", "dense/kernel", "flags"]
        (pred,) = tf.get_collection("predictions")
        with tf.Session(graph=g) as s:
            saver.restore(s, tf.train.latest_checkpoint(str(ckpt)))
            np.testing.assert_allclose(np.asarray(s.run(pred, {"x:0": x})), VALUES["checkpoint_pred"]["pred"], rtol=1e-6)
            kernel = next(v for v in tf.global_variables() if v.op.name == "dense/kernel")
            s.run(kernel.assign(kernel * 2.0))
            path = saver.save(s, str(ckpt / "model"), global_step=4)
    assert tf.train.latest_checkpoint(str(ckpt)) == path
    doubled = np.array(VALUES["checkpoint"]["dense/kernel"]["value"], np.float32) * 2
    np.testing.assert_array_equal(tf.train.load_checkpoint(path).get_tensor("dense/kernel"), doubled)


def test_tf_checkpoint_restores_into_a_jaxsess_graph() -> None:
    want = VALUES["checkpoint"]
    with tf.Graph().as_default() as g:
        w = tf.Variable(np.zeros((2, 3), np.float32), name="dense/kernel")
        n = tf.Variable(np.zeros(3, np.int32), name="counts")
        flags = tf.Variable(np.zeros(3, bool), name="flags")
        saver = tf.train.Saver([w, n, flags])
        with tf.Session(graph=g) as s:
            saver.restore(s, str(FIXTURES / "ckpt" / "model-3"))
            np.testing.assert_array_equal(np.asarray(s.run(w)), want["dense/kernel"]["value"])
            np.testing.assert_array_equal(np.asarray(s.run(n)), want["counts"]["value"])
            np.testing.assert_array_equal(np.asarray(s.run(flags)), want["flags"]["value"])


def test_init_from_checkpoint_with_assignment_map() -> None:
    with tf.Graph().as_default() as g:
        with tf.name_scope("model"):
            w = tf.Variable(np.zeros((2, 3), np.float32), name="kernel")
        other = tf.Variable(np.ones(2, np.float32), name="other")
        tf.train.init_from_checkpoint(str(FIXTURES / "ckpt"), {"dense/": "model/"})
        tf.train.init_from_checkpoint(str(FIXTURES / "ckpt"), {"dense/bias": other})
        with pytest.raises(ValueError, match="nope"):
            tf.train.init_from_checkpoint(str(FIXTURES / "ckpt"), {"nope": "model/kernel"})
        with pytest.raises(ValueError, match="Shape"):
            tf.train.init_from_checkpoint(str(FIXTURES / "ckpt"), {"counts": "model/kernel"})
        with tf.Session(graph=g) as s:
            s.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(np.asarray(s.run(w)), VALUES["checkpoint"]["dense/kernel"]["value"])
            np.testing.assert_array_equal(np.asarray(s.run(other)), VALUES["checkpoint"]["dense/bias"]["value"])


# -- event files ----------------------------------------------------------------------------------


def test_tf_event_file_reads_with_tensorboard() -> None:
    ea = EventAccumulator(str(FIXTURES / "events"))
    ea.Reload()
    assert [[e.step, e.value] for e in ea.Scalars("mean_x")] == VALUES["events"]["mean_x"]
    (path,) = tf.gfile.Glob(str(FIXTURES / "events" / "events.out.tfevents.*"))
    events = list(tf.train.summary_iterator(path))
    assert events[0].file_version == "brain.Event:2" and events[1].graph_def
    scalars = [[e.step, v.simple_value] for e in events for v in e.summary.value if v.tag == "mean_x"]
    assert scalars == VALUES["events"]["mean_x"]
    with pytest.raises(errors.NotFoundError):
        list(tf.train.summary_iterator(str(FIXTURES / "events" / "nope")))


def test_our_summaries_and_event_files(tmp_path: Path) -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None], name="x")
        tf.summary.scalar("mean_x", tf.reduce_mean(x))
        tf.summary.histogram("values", x)
        tf.summary.image("img", tf.reshape(x[:4], [1, 2, 2, 1]), max_outputs=1)
        tf.summary.text("note", "hello")
        merged = tf.summary.merge_all()
        writer = tf.summary.FileWriter(str(tmp_path), g)
        with tf.Session(graph=g) as s:
            for step in range(3):
                summary = s.run(merged, {x: np.arange(4, dtype=np.float32) + step})
                assert isinstance(summary, bytes)
                writer.add_summary(summary, step)
        writer.close()
    parsed = tf.Summary.FromString(summary)
    assert [v.tag for v in parsed.value] == ["mean_x", "values", "img/image", "note"]
    histo = parsed.value[1].histo
    assert (histo.min, histo.max, histo.num, histo.sum, histo.sum_squares) == (2.0, 5.0, 4.0, 14.0, 54.0)
    assert sum(histo.bucket) == 4
    ea = EventAccumulator(str(tmp_path), size_guidance={"images": 0, "tensors": 0})
    ea.Reload()
    assert [[e.step, e.value] for e in ea.Scalars("mean_x")] == VALUES["events"]["mean_x"]  # what TF wrote
    assert ea.Images("img/image")[0].width == 2
    assert ea.Histograms("values")[-1].histogram_value.max == 5.0
    graph = ea.Graph()
    assert {"x", "mean_x"} <= {n.name for n in graph.node}


def test_image_and_histogram_summaries_match_tf() -> None:
    import io

    from PIL import Image

    want = VALUES["images"]
    (path,) = tf.gfile.Glob(str(FIXTURES / "events" / "events.out.tfevents.*"))
    tf_histo = next(v.histo for e in tf.train.summary_iterator(path) for v in e.summary.value if v.HasField("histo"))
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 2, 2, 3])
        one = tf.summary.image("one", x, max_outputs=1)
        three = tf.summary.image("three", x, max_outputs=3)
        v = tf.placeholder(tf.float32, [None])
        histo = tf.summary.histogram("x", v)
        with tf.Session(graph=g) as s:
            for im, pixels in zip(want["inputs"], want["pixels"]):
                value = tf.Summary.FromString(s.run(one, {x: im})).value[0]
                got = np.asarray(Image.open(io.BytesIO(value.image.encoded_image_string))).ravel().tolist()
                assert got == pixels  # TF's scaling of float images
            batch = np.concatenate([np.array(i, np.float32) for i in want["inputs"]])
            assert [v.tag for v in tf.Summary.FromString(s.run(one, {x: batch})).value] == want["tags_one"]
            assert [v.tag for v in tf.Summary.FromString(s.run(three, {x: batch})).value] == want["tags_three"]
            ours = tf.Summary.FromString(s.run(histo, {v: np.arange(4, dtype=np.float32)})).value[0].histo
    assert ours == tf_histo  # TF's buckets, empty runs collapsed as TF


def test_summary_errors(tmp_path: Path) -> None:
    with tf.Graph().as_default():
        bad = tf.summary.scalar("bad", tf.zeros([2]))  # as TF: an error of the run
        with tf.Session() as sess, pytest.raises(errors.InvalidArgumentError, match="not the same shape"):
            sess.run(bad)
        tf.get_default_graph().clear_collection(tf.GraphKeys.SUMMARIES)
        with pytest.raises(TypeError, match="string"):
            tf.summary.text("t", tf.zeros([2]))
        with pytest.raises(TypeError, match="summary tensors"):
            tf.summary.merge([tf.zeros([2])])
        assert tf.summary.merge_all() is None
    with tf.summary.FileWriter(str(tmp_path)) as writer, pytest.raises(TypeError, match="Summary"):
        writer.add_summary(3.0)  # type: ignore[arg-type]


# -- gfile --------------------------------------------------------------------------------------------


def test_gfile_local_paths(tmp_path: Path) -> None:
    d = str(tmp_path / "a" / "b")
    tf.gfile.MakeDirs(d)
    assert tf.io.gfile.isdir(d) and tf.gfile.Exists(d)
    with tf.gfile.GFile(os.path.join(d, "f.txt"), "w") as f:
        f.write("hello\nworld\n")
    with tf.gfile.Open(os.path.join(d, "f.txt")) as f:
        assert f.readlines() == ["hello\n", "world\n"]
    with tf.io.gfile.GFile(os.path.join(d, "g.bin"), "wb") as f:
        f.write(b"\x00\x01")
    assert tf.gfile.ListDirectory(d) == ["f.txt", "g.bin"]
    assert tf.io.gfile.glob(os.path.join(d, "*.txt")) == [os.path.join(d, "f.txt")]
    tf.io.gfile.copy(os.path.join(d, "g.bin"), os.path.join(d, "h.bin"))
    with pytest.raises(errors.AlreadyExistsError):
        tf.io.gfile.copy(os.path.join(d, "g.bin"), os.path.join(d, "h.bin"))
    tf.gfile.Rename(os.path.join(d, "h.bin"), os.path.join(d, "i.bin"))
    assert tf.io.gfile.stat(os.path.join(d, "i.bin")).length == 2
    tf.gfile.Remove(os.path.join(d, "i.bin"))
    with pytest.raises(errors.NotFoundError):
        tf.gfile.Remove(os.path.join(d, "i.bin"))
    with pytest.raises(errors.NotFoundError):
        tf.gfile.GFile(os.path.join(d, "missing")).read()
    with pytest.raises(errors.NotFoundError):
        tf.gfile.ListDirectory(os.path.join(d, "missing"))
    with pytest.raises(errors.UnimplementedError, match="gs"):
        tf.gfile.Exists("gs://bucket/x")
    tf.io.gfile.rmtree(str(tmp_path / "a"))
    assert not tf.gfile.Exists(str(tmp_path / "a"))


# -- graph_util -------------------------------------------------------------------------------------


def test_freeze_our_model_and_run_it() -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
        y = tf.nn.relu(tf.matmul(x, w) - 4.0, name="y")
        tf.identity(y * 2.0, name="unused")
        with tf.Session(graph=g) as s:
            s.run(tf.global_variables_initializer())
            frozen = tf.graph_util.convert_variables_to_constants(s, g.as_graph_def(), ["y"])
            want = np.asarray(s.run(y, {x: np.ones((2, 3), np.float32)}))
    ops = {n.name: n.op for n in frozen.node}
    assert ops["w"] == "Const" and "unused" not in ops and "w/Assign" not in ops
    with tf.Graph().as_default() as g2:
        (y2,) = tf.import_graph_def(tf.GraphDef.FromString(frozen.SerializeToString()), return_elements=["y:0"], name="")
        with tf.Session(graph=g2) as s:
            np.testing.assert_array_equal(np.asarray(s.run(y2, {"x:0": np.ones((2, 3), np.float32)})), want)
    sub = tf.graph_util.extract_sub_graph(frozen, ["w"])
    assert [n.name for n in sub.node] == ["w"]
    with pytest.raises(AssertionError, match="nope"):
        tf.graph_util.extract_sub_graph(frozen, ["nope"])


# -- the other direction: real TensorFlow reads what jaxsess wrote -----------------------------------------


MANY_OPS_INPUT = np.linspace(-2, 2, 2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)


def write_many_ops_graph(out: Path) -> dict:
    """``ops.pb``: a graph of many op types (TF's names and attributes: conv/pool strides and
    padding, constant inputs as Const nodes...); returns ``{node: value jaxsess computed}``."""
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 4, 4, 3], name="x")
        k = tf.constant(np.linspace(-1, 1, 3 * 3 * 3 * 2, dtype=np.float32).reshape(3, 3, 3, 2))
        c = tf.nn.conv2d(x, k, strides=[1, 1, 1, 1], padding="VALID", name="conv")
        tf.nn.conv2d(x, k, strides=2, padding=[[0, 0], [1, 0], [0, 1], [0, 0]], name="conv_explicit")
        mp = tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME", name="maxpool")
        tf.nn.avg_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID", name="avgpool")
        r = tf.reshape(mp, [-1, 12], name="reshape")
        tf.transpose(r, [1, 0], name="transpose")
        tf.concat([r, r * 2.0], axis=1, name="concat")
        tf.stack([r, r], axis=0, name="stack")
        tf.squeeze(tf.expand_dims(r, 0, name="expand"), [0], name="squeeze")
        am = tf.argmax(r, axis=1, name="argmax")
        tf.cast(am, tf.float32, name="cast")
        tf.identity(r[:, 1:5:2], name="slice")
        tf.identity(x[0, ..., 1], name="slice2")
        tf.reduce_max(c, axis=[1, 2], name="rmax")
        tf.reduce_sum(r, name="rsum_all")
        tf.nn.log_softmax(r, name="logsoftmax")
        tf.sigmoid(r, name="sigmoid")
        tf.divide(r, 3.0, name="div")
        tf.nn.leaky_relu(r, 0.1, name="leaky")
        tf.zeros_like(r, name="zeros_like")
        tf.add_n([r, r, r], name="addn")
        tf.nn.bias_add(c, tf.constant([0.5, -0.5]), name="biasadd")
        tf.gather(r, [1, 0], name="gather")
        tf.one_hot(am, 12, name="onehot")
        tf.pad(r, [[1, 0], [0, 2]], name="pad")
        tf.tile(r, [1, 2], name="tile")
        tf.where(r > 0, r, -r, name="where")
        tf.slice(r, [0, 2], [2, 3], name="slice3")
        names = [op.name for op in g.get_operations() if op.type not in ("Const", "Placeholder") and op.outputs]
        with tf.Session(graph=g) as s:
            values = [np.asarray(v) for v in s.run([n + ":0" for n in names], {x: MANY_OPS_INPUT})]
    tf.train.write_graph(g, str(out), "ops.pb", as_text=False)
    return {n: v.tolist() for n, v in zip(names, values)}


def write_random_init_meta(out: Path) -> dict[str, list]:
    """A ``.meta`` whose variables start from seeded random initializers (``random_uniform`` float
    and int, ``random_normal``, ``truncated_normal``), as TF writes them: TF's ``RandomUniform(shape)
    * (maxval - minval) + minval``, ``T`` the shape's type. Returns the initial values jaxsess drew
    (TF's Philox numbers: real TF's initializers must give the same)."""
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        w = tf.Variable(tf.random_uniform([4, 3], -1.0, 1.0, seed=1), name="w")
        b = tf.Variable(tf.truncated_normal([3], stddev=0.1, seed=2), name="b")
        c = tf.Variable(tf.random_normal([3], mean=1.0, seed=3), name="c")
        k = tf.Variable(tf.random_uniform([5], 0, 100, dtype=tf.int32, seed=4), name="k")
        # stateless ops: TF's StatelessRandomGetKeyCounter + V2 ops, TF's numbers for the seed
        su = tf.Variable(tf.random.stateless_uniform([4], seed=[1, 2], minval=-1.0, maxval=1.0), name="su")
        si = tf.Variable(tf.random.stateless_uniform([4], seed=[3, 4], minval=0, maxval=9, dtype=tf.int32),
                         name="si")
        sf = tf.Variable(tf.random.stateless_uniform([2], seed=[5, 6], minval=None, maxval=None, dtype=tf.int64),
                         name="sf")
        sc = tf.Variable(tf.random.stateless_categorical([[0.0, 1.0, 0.5]], 4, seed=[7, 8]), name="sc")
        tf.identity(tf.matmul(x, w) + b + c, name="y")
        with tf.Session(graph=g) as s:
            s.run(tf.global_variables_initializer())
            values = s.run({"w": w, "b": b, "c": c, "k": k, "su": su, "si": si, "sf": sf, "sc": sc})
            tf.train.Saver().save(s, str(out / "random" / "model"))
    return {name: np.asarray(v).tolist() for name, v in values.items()}


def test_random_initializers_round_trip_through_tf_ops(tmp_path: Path) -> None:
    """jaxsess's random ops are written as TF's nodes, and read back as jaxsess's own ops:
    the re-imported initializers draw the same values."""
    init = write_random_init_meta(tmp_path)
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(str(tmp_path / "random" / "model.meta"))
        random_ops = [o for o in g.get_operations() if o.type in ("RandomUniform", "RandomStandardNormal",
                                                                  "TruncatedNormal")]
        assert len(random_ops) == 4  # jaxsess's own ops again, the TF helper nodes skipped
        assert not any(o.name.endswith(("/RandomUniform", "/sub", "/mul")) for o in g.get_operations()
                       if "stateless" not in o.name)  # TF's stateless uniform has its own Sub and Mul
        with tf.Session(graph=g) as s:
            s.run(tf.global_variables_initializer())
            got = s.run({k: k + ":0" for k in init})
    for k, v in init.items():
        np.testing.assert_array_equal(np.asarray(got[k]), np.asarray(v), err_msg=k)
    meta = meta_graph_pb2.MetaGraphDef.FromString((tmp_path / "random" / "model.meta").read_bytes())
    nodes = {n.name: n for n in meta.graph_def.node}
    tf_ops = {n.op for n in nodes.values()}
    assert {"RandomUniform", "RandomUniformInt", "RandomStandardNormal", "TruncatedNormal", "Sub", "Mul"} <= tf_ops
    assert {"StatelessRandomGetKeyCounter", "StatelessRandomUniformV2", "StatelessRandomUniformIntV2",
            "StatelessRandomUniformFullIntV2", "StatelessMultinomial"} <= tf_ops
    v2 = next(n for n in nodes.values() if n.op == "StatelessRandomUniformV2")
    assert [nodes[i.split(":")[0]].op for i in v2.input] == ["Const", "StatelessRandomGetKeyCounter",
                                                             "StatelessRandomGetKeyCounter", "Const"]
    assert list(v2.input)[1:3] == [f"{v2.input[1]}", f"{v2.input[1]}:1"]
    assert set(v2.attr) <= {"Tshape", "dtype", "_output_shapes"}
    uniform = next(n for n in nodes.values() if n.op == "RandomUniform")
    assert uniform.attr["T"].type == 3 and uniform.attr["dtype"].type == 1  # DT_INT32 shape, DT_FLOAT values
    assert set(uniform.attr) <= {"T", "dtype", "seed", "seed2", "_jaxsess_helper"}


TF_MODELS = Path(__file__).parent / "fixtures" / "tf_models"


def write_saver_op_checkpoints(out: Path) -> dict:
    """Checkpoints written by TF's own saver ops (``SaveV2``; the sharded saver's
    ``MergeV2Checkpoints``) of TF-written graphs, run in jaxsess after their restore ops."""
    info = {}
    train = str(TF_MODELS / "tf1_train" / "model-3")
    saved = TF_MODELS / "tf1_saved_model"
    sharded_meta = _tfproto.read_message(str(saved / "saved_model.pb"), _tfproto.SavedModel).meta_graphs[0]
    for key, meta, source in (("saver_ops", train + ".meta", train),
                              ("saver_ops_sharded", sharded_meta, str(saved / "variables" / "variables"))):
        with tf.Graph().as_default():
            saver = tf.train.import_meta_graph(meta)
            sd = saver.saver_def
            with tf.Session() as s:
                s.run(sd.restore_op_name, {sd.filename_tensor_name: source})
                prefix = str(out / key / "model")
                s.run(sd.save_tensor_name, {sd.filename_tensor_name: prefix})
        info[f"{key}_prefix"], info[f"{key}_source"] = prefix, source
    info["saver_ops_meta"] = train + ".meta"
    return info


def write_our_files(out: Path) -> dict:
    """A checkpoint (+ meta graph), a GraphDef (.pb, .pbtxt, frozen) and an event file, written by jaxsess."""
    x_in = np.array([[1.0, -2.0, 0.5]], np.float32)
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2), name="dense/kernel")
        b = tf.Variable(np.array([0.5, -0.5], np.float32), name="dense/bias")
        tf.Variable(np.array([7, -8], np.int32), name="counts")
        y = tf.nn.softmax(tf.nn.relu(tf.matmul(x, w) + b), name="y")
        tf.reduce_mean(tf.reshape(y, [-1]), axis=0, name="m")
        total = tf.reduce_sum(y, name="total")
        tf.summary.scalar("loss", total)
        merged = tf.summary.merge_all()
        saver = tf.train.Saver()
        with tf.Session(graph=g) as s:
            s.run(tf.global_variables_initializer())
            (out / "ckpt").mkdir()
            prefix = saver.save(s, str(out / "ckpt" / "model"), global_step=5)
            # saved twice over one prefix: the atomic save's second form (two data shards, the second empty)
            (out / "ckpt2").mkdir()
            saver.save(s, str(out / "ckpt2" / "model"), write_meta_graph=False)
            prefix2 = saver.save(s, str(out / "ckpt2" / "model"), write_meta_graph=False)
            assert sorted(os.listdir(out / "ckpt2")) == [
                "checkpoint", "model.data-00000-of-00002", "model.data-00001-of-00002", "model.index"]
            y_val, m_val = (np.asarray(v) for v in s.run(["y:0", "m:0"], {x: x_in}))
            frozen = tf.graph_util.convert_variables_to_constants(s, g.as_graph_def(), ["y", "m"])
            writer = tf.summary.FileWriter(str(out / "events"), g)
            for step in range(3):
                writer.add_summary(s.run(merged, {x: x_in * step}), step)
            writer.close()
            losses = [float(np.asarray(s.run(total, {x: x_in * step}))) for step in range(3)]
    ops_values = write_many_ops_graph(out)
    random_init = write_random_init_meta(out)
    inference = tf.graph_util.extract_sub_graph(g.as_graph_def(), ["y", "m", "dense/kernel/Assign", "dense/bias/Assign"])
    tf.train.write_graph(inference, str(out), "graph.pbtxt", as_text=True)
    tf.train.write_graph(frozen, str(out), "frozen.pb", as_text=False)
    return {
        "checkpoint_dir": str(out / "ckpt"), "prefix": prefix, "events": str(out / "events"),
        "checkpoint_dir_two_shards": str(out / "ckpt2"), "prefix_two_shards": prefix2,
        "graph_pbtxt": str(out / "graph.pbtxt"), "frozen_pb": str(out / "frozen.pb"),
        "x": x_in.tolist(), "y": y_val.tolist(), "m": float(m_val), "losses": losses,
        "ops_pb": str(out / "ops.pb"), "ops": ops_values,
        "random_meta": str(out / "random" / "model.meta"), "random_init": random_init,
        "variables": {"dense/kernel": np.linspace(-1, 1, 6).reshape(3, 2).tolist(), "dense/bias": [0.5, -0.5],
                      "counts": [7, -8]},
        **write_saver_op_checkpoints(out),
    }


def test_our_files_are_consistent_without_tf(tmp_path: Path) -> None:
    info = write_our_files(tmp_path)
    with tf.Graph().as_default() as g:  # ops.pb imports back into jaxsess with the same values
        tf.import_graph_def(read_graph_def(info["ops_pb"]), name="")
        with tf.Session(graph=g) as s:
            got = [np.asarray(v) for v in s.run([n + ":0" for n in info["ops"]], {"x:0": MANY_OPS_INPUT})]
        for (name, want), value in zip(info["ops"].items(), got):
            np.testing.assert_allclose(np.asarray(value), want, rtol=1e-6, err_msg=name)
    ea = EventAccumulator(info["events"])
    ea.Reload()
    assert [round(e.value, 5) for e in ea.Scalars("loss")] == [round(v, 5) for v in info["losses"]]
    assert sorted(tf.gfile.ListDirectory(info["checkpoint_dir"])) == [
        "checkpoint", "model-5.data-00000-of-00001", "model-5.index", "model-5.meta"]


@pytest.mark.skipif(not os.environ.get("JAXSESS_TF_PYTHON"), reason="set JAXSESS_TF_PYTHON to a Python with tensorflow-cpu")
def test_files_read_by_real_tensorflow(tmp_path: Path) -> None:
    info = write_our_files(tmp_path)
    (tmp_path / "info.json").write_text(json.dumps(info))
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "CUDA_VISIBLE_DEVICES": ""}
    proc = subprocess.run([os.environ["JAXSESS_TF_PYTHON"], str(ORACLE), str(tmp_path / "info.json")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "all checks passed" in proc.stdout


def test_tensor_summary_round_trips_through_our_graph_def() -> None:
    """``tensor_summary`` is written as TF's ``TensorSummary`` (TF's ``TensorSummaryV2`` has constant
    inputs on both sides of the tensor), its exact attributes kept privately: read back, it gives
    the same Summary."""
    with tf.Graph().as_default() as g:
        x = tf.constant(np.arange(4, dtype=np.float32))
        tf.summary.tensor_summary("t", x * 2, summary_description="doubled")
        gd = g.as_graph_def()
        with tf.Session() as s:
            want = s.run("t:0")
    node = next(n for n in gd.node if n.name == "t")
    assert node.op == "TensorSummary" and node.attr["description"].s == b"doubled"
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as s:
            got = s.run("t:0")
    assert got == want
    value = tf.Summary.FromString(got).value[0]
    assert value.tag == "t" and value.metadata.summary_description == "doubled"
    np.testing.assert_array_equal(tf.make_ndarray(value.tensor), [0.0, 2.0, 4.0, 6.0])
