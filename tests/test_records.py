"""SavedModel directories, TFRecord files, ``tf.train.Example`` parsing and CSV decoding.

Files written by real TensorFlow (``tests/fixtures/tf/make_records_fixtures.py``)
are read here without TensorFlow; files jaxsess writes are read by real TF in
``tests/tf_oracle/check_our_records.py`` (``test_our_records_read_by_real_tensorflow``).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import text_format

import jaxsess as tf
from jaxsess import errors

FIXTURES = Path(__file__).parent / "fixtures" / "tf"
VALUES = json.loads((FIXTURES / "records_values.json").read_text())
ORACLE = Path(__file__).parent / "tf_oracle" / "check_our_records.py"
X = np.array(VALUES["simple"]["x"], np.float32)


def test_tensorflow_is_not_imported() -> None:
    assert "tensorflow" not in sys.modules


# -- tf.train.Example ------------------------------------------------------------------------


def example(i: int) -> bytes:
    ex = tf.train.Example(features=tf.train.Features(feature={
        "image": tf.train.Feature(float_list=tf.train.FloatList(value=[i * 0.5, i * 0.5 + 1.0, -1.5])),
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
        "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[f"item{i}".encode()])),
    }))
    return bytes(ex.SerializeToString(deterministic=True))


def test_example_bytes_are_tensorflows() -> None:
    assert [example(i).hex() for i in range(3)] == VALUES["records"]["serialized_hex"]
    back = tf.train.Example.FromString(bytes.fromhex(VALUES["records"]["serialized_hex"][2]))
    assert list(back.features.feature["image"].float_list.value) == [1.0, 2.0, -1.5]
    assert back.features.feature["name"].WhichOneof("kind") == "bytes_list"


# -- TFRecord files ----------------------------------------------------------------------------


@pytest.mark.parametrize("name, kind", [("examples.tfrecord", ""), ("examples.tfrecord.gz", "GZIP")])
def test_tf_written_records_are_read(name: str, kind: str) -> None:
    records = list(tf.python_io.tf_record_iterator(str(FIXTURES / "records" / name), tf.io.TFRecordOptions(kind)))
    assert [r.hex() for r in records] == VALUES["records"]["serialized_hex"]


@pytest.mark.parametrize("kind", ["", "GZIP", "ZLIB"])
def test_records_round_trip(tmp_path: Path, kind: str) -> None:
    path = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(path, kind) as w:
        w.write(b"")
        w.write("text")
        w.write(b"\x00" * 1000)
    assert list(tf.python_io.tf_record_iterator(path, kind)) == [b"", b"text", b"\x00" * 1000]
    with pytest.raises(ValueError, match="closed"):
        w.write(b"x")


def test_record_errors(tmp_path: Path) -> None:
    path = tmp_path / "r.tfrecord"
    with tf.python_io.TFRecordWriter(str(path)) as w:
        w.write(b"payload")
    data = bytearray(path.read_bytes())
    data[14] ^= 0xFF  # a byte of the payload
    bad = tmp_path / "bad.tfrecord"
    bad.write_bytes(bytes(data))
    with pytest.raises(errors.DataLossError, match="data checksum"):
        list(tf.python_io.tf_record_iterator(str(bad)))
    bad.write_bytes(path.read_bytes()[:-2])
    with pytest.raises(errors.DataLossError, match="truncated"):
        list(tf.python_io.tf_record_iterator(str(bad)))
    it = tf.python_io.tf_record_iterator(str(tmp_path / "missing"))  # lazy, as TF's generator
    with pytest.raises(errors.NotFoundError):
        next(it)
    with pytest.raises(ValueError, match="compression"):
        tf.io.TFRecordOptions("LZ4")
    with pytest.raises(errors.DataLossError):
        list(tf.python_io.tf_record_iterator(str(path), "GZIP"))  # not a gzip file


def test_tfrecord_dataset_parses_tf_written_examples() -> None:
    ds = tf.data.TFRecordDataset([str(FIXTURES / "records" / "examples.tfrecord.gz")], compression_type="GZIP")
    feats = {"image": tf.FixedLenFeature([3], tf.float32), "label": tf.FixedLenFeature([], tf.int64),
             "name": tf.FixedLenFeature([], tf.string)}
    ds = ds.map(lambda s: tf.parse_single_example(s, feats)).batch(2)
    assert {k: v.name for k, v in ds.output_types.items()} == {"image": "float32", "label": "int64", "name": "string"}
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as s:
        first = s.run(nxt)
        last = s.run(nxt)
        with pytest.raises(errors.OutOfRangeError):
            s.run(nxt)
    want = VALUES["records"]["first_batch"]
    np.testing.assert_array_equal(first["image"], np.array(want["image"], np.float32))
    assert first["label"].dtype == np.int64 and first["label"].tolist() == want["label"]
    assert [n.decode() for n in first["name"]] == want["name"]
    assert last["label"].tolist() == [2]


def test_tfrecord_dataset_of_fed_file_names() -> None:
    files = tf.placeholder(tf.string, [None])
    ds = tf.data.TFRecordDataset(files).map(
        lambda s: tf.parse_single_example(s, {"label": tf.FixedLenFeature(1, tf.int64)}))
    it = tf.data.make_initializable_iterator(ds)
    nxt = it.get_next()
    path = str(FIXTURES / "records" / "examples.tfrecord")
    with tf.Session() as s:
        for copies in (1, 2):
            s.run(it.initializer, {files: [path] * copies})
            labels = []
            with pytest.raises(errors.OutOfRangeError):
                while True:
                    labels.append(int(s.run(nxt)["label"][0]))
            assert labels == [0, 1, 2] * copies


def test_dataset_map_mixes_host_and_device_ops(tmp_path: Path) -> None:
    path = tmp_path / "lines.csv.gz"
    path.write_bytes(gzip.compress(b"1,2.5\n3,-1\r\n"))
    ds = tf.data.TextLineDataset(str(path), compression_type="GZIP")
    ds = ds.map(lambda line: tf.decode_csv(line, [[0], [0.0]])).map(lambda a, b: tf.cast(a, tf.float32) * b)
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as s:
        assert [float(s.run(nxt)), float(s.run(nxt))] == [2.5, -3.0]


# -- parsing ops: errors at build time and at run time ------------------------------------------


def test_parse_example_rejects_what_it_does_not_cover() -> None:
    s = tf.placeholder(tf.string, [])
    with pytest.raises(ValueError, match="VarLenFeature"):
        tf.parse_single_example(s, {"a": object()})
    with pytest.raises(TypeError, match="int32"):
        tf.parse_single_example(s, {"a": tf.FixedLenFeature([], tf.int32)})
    with pytest.raises(ValueError, match="allow_missing"):
        tf.parse_single_example(s, {"a": tf.FixedLenSequenceFeature([], tf.float32)})
    with pytest.raises(ValueError, match="scalar"):
        tf.parse_single_example(tf.placeholder(tf.string, [2]), {"a": tf.FixedLenFeature([], tf.float32)})
    with pytest.raises(ValueError, match="one character"):
        tf.decode_csv(s, [[0]], field_delim="||")
    with pytest.raises(TypeError, match="numeric"):
        tf.decode_raw(s, tf.string)


def test_failed_parse_leaves_variables_unchanged() -> None:
    line = tf.placeholder(tf.string, [])
    v = tf.Variable(1.0)
    (a,) = tf.decode_csv(line, [[0.0]])
    step = tf.assign_add(v, a)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(step, {line: "2"})
        with pytest.raises(errors.InvalidArgumentError, match="Field 0 in record 0 is not a valid float: x"):
            s.run(step, {line: "x"})
        assert s.run(v) == 3.0
        bad = tf.parse_single_example(line, {"k": tf.FixedLenFeature([1], tf.float32)})
        with pytest.raises(errors.InvalidArgumentError, match=r"Feature: k \(data type: float\) is required"):
            s.run(bad, {line: example(0)})


# -- SavedModel -------------------------------------------------------------------------------


def test_tf_simple_saved_model_runs_with_tf_values() -> None:
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        meta = tf.saved_model.loader.load(s, [tf.saved_model.tag_constants.SERVING], str(FIXTURES / "saved_model"))
        sig = meta.signature_def[tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        x = tf.saved_model.utils.get_tensor_from_tensor_info(sig.inputs["x"])
        outs = {k: tf.saved_model.utils.get_tensor_from_tensor_info(v) for k, v in sig.outputs.items()}
        got = s.run(outs, {x: X})
    np.testing.assert_allclose(got["y"], VALUES["simple"]["y"], rtol=1e-6)
    np.testing.assert_allclose(got["p"], VALUES["simple"]["p"], rtol=1e-6)


@pytest.mark.parametrize("tags", [["serve"], ["train"]])
def test_tf_builder_saved_model_runs_its_main_op(tags: list[str]) -> None:
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        tf.saved_model.load(s, tags, str(FIXTURES / "saved_model_builder"))
        np.testing.assert_allclose(s.run("y:0", {"x:0": X}), VALUES["builder"]["y"], rtol=1e-6)
        assert s.run("counter:0") == VALUES["builder"]["counter_after_load"]


def test_tf_serving_model_of_serialized_examples() -> None:
    want = VALUES["parse"]
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        meta = tf.saved_model.loader.load(s, ["serve"], str(FIXTURES / "saved_model_parse"))
        sig = meta.signature_def["serving_default"]
        got = s.run({k: v.name for k, v in sig.outputs.items()},
                    {sig.inputs["examples"].name: [bytes.fromhex(h) for h in want["examples_hex"]]})
    np.testing.assert_allclose(got["score"], want["score"], rtol=1e-6)
    assert [t.decode() for t in got["tag"]] == want["tag"]


def test_load_errors(tmp_path: Path) -> None:
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags 'gpu' could not be found"):
            tf.saved_model.loader.load(s, ["gpu"], str(FIXTURES / "saved_model"))
        with pytest.raises(OSError, match="SavedModel file does not exist"):
            tf.saved_model.loader.load(s, ["serve"], str(tmp_path))
    assert tf.saved_model.contains_saved_model(str(FIXTURES / "saved_model"))
    assert not tf.saved_model.loader.maybe_saved_model_directory(str(tmp_path))


def build_model() -> tuple:
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.linspace(-0.5, 0.5, 6, dtype=np.float32).reshape(3, 2), name="dense/kernel")
    b = tf.Variable(np.array([0.1, -0.2], np.float32), name="dense/bias")
    y = tf.add(tf.matmul(x, w), b, name="y")
    return x, w, b, y, tf.nn.softmax(y, name="p")


def write_our_records(out: Path) -> dict:
    """Two SavedModels and three TFRecord files written by jaxsess, and what jaxsess computed."""
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        x, w, b, y, p = build_model()
        s.run(tf.global_variables_initializer())
        s.run(tf.assign(b, [0.25, -0.25]))
        yv, pv = s.run([y, p], {x: X})
        tf.saved_model.simple_save(s, str(out / "simple"), inputs={"x": x}, outputs={"y": y, "p": p})
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        x, w, b, y, p = build_model()
        counter = tf.Variable(0, name="counter")
        set_counter = tf.assign(counter, 5, name="set_counter")
        s.run(tf.global_variables_initializer())
        s.run(tf.assign(w, w * 2.0))
        yb = s.run(y, {x: X})
        builder = tf.saved_model.builder.SavedModelBuilder(str(out / "builder"))
        sig = tf.saved_model.signature_def_utils.predict_signature_def(inputs={"features": x}, outputs={"scores": y})
        builder.add_meta_graph_and_variables(s, [tf.saved_model.tag_constants.SERVING],
                                             signature_def_map={"scores": sig}, main_op=tf.group(set_counter))
        builder.add_meta_graph([tf.saved_model.tag_constants.TRAINING])  # the main op is in the graph
        builder.save()
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:  # a serving model of serialized Examples
        serialized = tf.placeholder(tf.string, [None], name="examples")
        feats = tf.parse_example(serialized, {
            "x": tf.FixedLenFeature([2], tf.float32), "scale": tf.FixedLenFeature([], tf.float32, default_value=3.0),
            "ids": tf.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
            "tag": tf.FixedLenFeature([], tf.string, default_value="none")})
        v = tf.Variable(np.array([1.0, -2.0], np.float32), name="v")
        score = tf.identity(tf.reduce_sum(feats["x"] * v, axis=1) * feats["scale"]
                            + tf.cast(tf.reduce_sum(feats["ids"], axis=1), tf.float32), name="score")
        s.run(tf.global_variables_initializer())
        rows = [tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 0.5])),
                    "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=[4, 5])),
                    "tag": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"a"]))})).SerializeToString(),
                tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=[2.0, 1.0])),
                    "scale": tf.train.Feature(float_list=tf.train.FloatList(value=[-1.0]))})).SerializeToString()]
        parse_score, parse_tag = s.run([score, feats["tag"]], {serialized: rows})
        tf.saved_model.simple_save(s, str(out / "parse"), inputs={"examples": serialized},
                                   outputs={"score": score, "tag": feats["tag"]})
    files = []
    for name, kind in (("plain.tfrecord", ""), ("gzip.tfrecord", "GZIP"), ("zlib.tfrecord", "ZLIB")):
        path = str(out / name)
        with tf.python_io.TFRecordWriter(path, tf.python_io.TFRecordOptions(kind)) as wr:
            for i in range(3):
                wr.write(tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, -i / 2])),
                    "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[10 * i])),
                    "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"r%d" % i])),
                })).SerializeToString(deterministic=True))
        files.append([path, kind])
    records = [r.hex() for r in tf.python_io.tf_record_iterator(files[0][0])]
    with tf.Graph().as_default() as g:  # host ops in a GraphDef, as TF writes them
        lines = tf.placeholder(tf.string, [None], name="lines")
        tf.decode_csv(lines, [[1.0], [0], tf.constant([], tf.int64), ["z"]], field_delim=";", name="csv")
        tf.string_to_number(tf.strings.join([tf.constant(["2"]), "5"]), tf.int64, name="num")
        tf.decode_raw(lines, tf.uint8, name="raw")
        tf.train.write_graph(g, str(out), "parse_ops.pbtxt", as_text=True)
    return {
        "parse_ops": str(out / "parse_ops.pbtxt"), "parse_dir": str(out / "parse"),
        "parse_rows": [r.hex() for r in rows], "parse_score": parse_score.tolist(),
        "parse_tag": [t.decode() for t in parse_tag],
        "simple_dir": str(out / "simple"), "builder_dir": str(out / "builder"), "x": X.tolist(),
        "y": yv.tolist(), "p": pv.tolist(), "y_builder": yb.tolist(), "counter": 5, "record_files": files,
        "records": {"serialized_hex": records, "x": [[i, -i / 2] for i in range(3)], "label": [0, 10, 20],
                    "name": ["r0", "r1", "r2"]},
    }


def test_our_saved_models_and_records_load_back(tmp_path: Path) -> None:
    info = write_our_records(tmp_path)
    assert sorted(os.listdir(info["simple_dir"])) == ["saved_model.pb", "variables"]
    assert sorted(os.listdir(os.path.join(info["simple_dir"], "variables"))) == [
        "variables.data-00000-of-00001", "variables.index"]
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        meta = tf.saved_model.loader.load(s, ["serve"], info["simple_dir"])
        assert list(meta.meta_info_def.tags) == ["serve"]
        sig = meta.signature_def["serving_default"]
        assert sig.method_name == tf.saved_model.signature_constants.PREDICT_METHOD_NAME
        assert sig.inputs["x"].tensor_shape.dim[0].size == -1 and sig.inputs["x"].dtype == 1  # DT_FLOAT
        got = s.run({k: v.name for k, v in sig.outputs.items()}, {sig.inputs["x"].name: X})
        np.testing.assert_allclose(got["y"], info["y"], rtol=1e-6)
    for tags in (["serve"], ["train"]):
        with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
            tf.saved_model.loader.load(s, tags, info["builder_dir"], import_scope="m")
            np.testing.assert_allclose(s.run("m/y:0", {"m/x:0": X}), info["y_builder"], rtol=1e-6)
            assert s.run("m/counter:0") == 5
    for path, kind in info["record_files"]:
        assert [r.hex() for r in tf.python_io.tf_record_iterator(path, kind)] == info["records"]["serialized_hex"]
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        sig = tf.saved_model.loader.load(s, ["serve"], info["parse_dir"]).signature_def["serving_default"]
        got_parse = s.run([sig.outputs["score"].name, sig.outputs["tag"].name],
                          {sig.inputs["examples"].name: [bytes.fromhex(h) for h in info["parse_rows"]]})
    assert got_parse[0].tolist() == info["parse_score"] == [(1.0 - 1.0) * 3 + 9, 0.0]
    assert got_parse[1].tolist() == [b"a", b"none"]
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        tf.import_graph_def(text_format.Parse(Path(info["parse_ops"]).read_text(), tf.GraphDef()), name="")
        got = s.run(["csv:0", "csv:1", "csv:2", "csv:3", "num:0", "raw:0"], {"lines:0": [";2;3;a"]})
    assert [np.asarray(v).tolist() for v in got] == [[1.0], [2], [3], [b"a"], [25], [[59, 50, 59, 51, 59, 97]]]


def test_builder_errors_and_text_format(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "f").write_text("x")
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        tf.saved_model.builder.SavedModelBuilder(str(tmp_path / "full"))
    builder = tf.saved_model.Builder(str(tmp_path / "m"))
    with pytest.raises(AssertionError, match="has not been saved yet"):
        builder.add_meta_graph(["serve"])
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        x, w, b, y, p = build_model()
        s.run(tf.global_variables_initializer())
        with pytest.raises(ValueError, match="empty"):
            tf.saved_model.predict_signature_def({}, {"y": y})
        builder.add_meta_graph_and_variables(s, ["serve"])
        with pytest.raises(AssertionError, match="already been saved"):
            builder.add_meta_graph_and_variables(s, ["train"])
        with pytest.raises(AssertionError, match="Tag set"):
            builder.add_meta_graph(["serve"])
        with pytest.raises(TypeError, match="main_op needs to be an Operation"):
            builder.add_meta_graph(["x"], main_op=y)
        path = builder.save(as_text=True)
    assert path.endswith(b"saved_model.pbtxt")
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        tf.saved_model.loader.load(s, ["serve"], str(tmp_path / "m"))
        np.testing.assert_allclose(s.run("dense/bias:0"), [0.1, -0.2])
    info = tf.saved_model.utils.build_tensor_info(y)
    assert info.name == "y:0" and [d.size for d in info.tensor_shape.dim] == [-1, 2]


@pytest.mark.skipif(not os.environ.get("JAXSESS_TF_PYTHON"), reason="set JAXSESS_TF_PYTHON to a Python with tensorflow-cpu")
def test_our_records_read_by_real_tensorflow(tmp_path: Path) -> None:
    info = write_our_records(tmp_path)
    (tmp_path / "info.json").write_text(json.dumps(info))
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "CUDA_VISIBLE_DEVICES": ""}
    proc = subprocess.run([os.environ["JAXSESS_TF_PYTHON"], str(ORACLE), str(tmp_path / "info.json")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "all checks passed" in proc.stdout


def _example(**feature: object) -> bytes:
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()



def test_varlen_feature_sparse_output_and_errors() -> None:
    rec = _example(x=tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0])))
    g = tf.Graph()
    with g.as_default():
        s = tf.placeholder(tf.string, [None])
        sp = tf.io.parse_example(s, {"x": tf.io.VarLenFeature(tf.float32)})["x"]
        assert isinstance(sp, tf.SparseTensor) and sp.dtype == tf.float32
        dense = tf.sparse.to_dense(sp)
        with tf.Session() as sess:
            v, d = sess.run([sp, dense], {s: [rec, _example()]})
            np.testing.assert_array_equal(v.indices, [[0, 0], [0, 1]])
            np.testing.assert_array_equal(v.dense_shape, [2, 2])
            np.testing.assert_array_equal(d, [[1.0, 2.0], [0.0, 0.0]])
            # wrong kind: TF's message
            wrong = tf.io.parse_example(s, {"x": tf.io.VarLenFeature(tf.int64)})["x"]
            with pytest.raises(tf.errors.InvalidArgumentError, match="Data types don't match"):
                sess.run(wrong, {s: [rec]})
    with pytest.raises(TypeError, match="sparse_types"):
        tf.io.parse_example(["x"], {"x": tf.io.VarLenFeature(tf.int32)})



def test_make_parse_example_spec_conflict() -> None:
    fc = tf.feature_column
    with pytest.raises(ValueError, match="different parse_spec for key k"):
        fc.make_parse_example_spec([fc.numeric_column("k"), fc.categorical_column_with_hash_bucket("k", 3)])
    spec = fc.make_parse_example_spec([fc.categorical_column_with_identity("i", 4)])
    assert spec == {"i": tf.io.VarLenFeature(tf.int64)}



def test_serialize_parse_roundtrip_and_errors() -> None:
    x = np.array([[1, 2], [3, 4]], np.int32)
    g = tf.Graph()
    with g.as_default():
        back = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant(x)), tf.int32)
        assert back.shape.ndims is None and back.dtype == tf.int32
        not_scalar = tf.io.parse_tensor(tf.constant(["a", "b"]), tf.int32)
        garbage = tf.io.parse_tensor(tf.constant(b"\xff\xff"), tf.int32)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(back), x)
            with pytest.raises(tf.errors.InvalidArgumentError, match="Expected `serialized` to be a scalar"):
                sess.run(not_scalar)
            with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse"):
                sess.run(garbage)
    with pytest.raises(ValueError, match="requested dtype string"):  # as TF
        tf.io.parse_tensor(tf.constant(1), tf.int32)



def test_decode_compressed_bad_type() -> None:
    with pytest.raises(ValueError, match="ZLIB, GZIP"):
        tf.io.decode_compressed(["x"], compression_type="BZIP2")



def test_fixed_length_record_dataset_errors(tmp_path) -> None:
    with pytest.raises(ValueError, match="record_bytes must be positive"):
        tf.data.FixedLengthRecordDataset(str(tmp_path / "x.bin"), 0)
    g = tf.Graph()
    with g.as_default():
        nxt = tf.data.FixedLengthRecordDataset(str(tmp_path / "missing.bin"), 4).make_one_shot_iterator().get_next()
        with tf.Session() as sess, pytest.raises(tf.errors.NotFoundError):
            sess.run(nxt)



def test_sequence_example_errors() -> None:
    ex = tf.train.SequenceExample()
    ex.feature_lists.feature_list["x"].feature.add().float_list.value.extend([1.0, 2.0])
    rec = ex.SerializeToString()
    g = tf.Graph()
    with g.as_default():
        _, seq = tf.parse_single_sequence_example(rec, sequence_features={
            "x": tf.FixedLenSequenceFeature([3], tf.float32)})
        _, missing = tf.parse_single_sequence_example(rec, sequence_features={
            "y": tf.FixedLenSequenceFeature([], tf.int64)})
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="values size: 2 but output shape: \\[3\\]"):
                sess.run(seq["x"])
            with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list 'y' is required"):
                sess.run(missing["y"])
    with pytest.raises(ValueError, match="Missing features"):
        tf.parse_single_sequence_example(rec)
    with pytest.raises(ValueError, match="Unsupported context feature type FixedLenSequenceFeature"):
        tf.parse_single_sequence_example(rec, context_features={"c": tf.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(ValueError, match="rank 0"):
        tf.parse_single_sequence_example([rec], sequence_features={"x": tf.VarLenFeature(tf.float32)})
