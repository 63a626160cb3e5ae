"""TF's saver ops run in a session (issue 32, item 1): ``RestoreV2``, ``SaveV2``,
``MergeV2Checkpoints`` (and the sharded saver's ``ShardedFilename``,
``StaticRegexFullMatch``, ``Select`` of strings).

Artifacts written by real TF 2.21 (``tests/fixtures/tf_models``, made by
``tests/tf_oracle/make_model_fixtures.py``): a TF1 training graph's ``.meta``
with its checkpoint (a plain ``Saver``) and a TF1 SavedModel (a sharded
``Saver``). Their saver sub-graphs are run the way TF's C++ serving runs them:
``sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: prefix})``
and ``sess.run(saver_def.save_tensor_name, {...: prefix})``. What the save ops
write is read back with jaxsess's bundle reader here, and by real TF in
``tests/test_tf_files.py::test_files_read_by_real_tensorflow``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors
from jaxsess._core import _tfproto
from jaxsess._tf1.train._checkpoint import BundleReader, write_bundle

MODELS = Path(__file__).parent / "fixtures" / "tf_models"
TRAIN_PREFIX = str(MODELS / "tf1_train" / "model-3")
SAVED_MODEL = MODELS / "tf1_saved_model"


def _meta(path: str) -> Any:
    return _tfproto.read_message(path, _tfproto.MetaGraphDef)


def _saved_model_meta() -> Any:
    return _tfproto.read_message(str(SAVED_MODEL / "saved_model.pb"), _tfproto.SavedModel).meta_graphs[0]


def _values(s: tf.Session) -> dict[str, np.ndarray]:
    vs = tf.global_variables()
    return {v.op.name: np.asarray(x) for v, x in zip(vs, s.run(vs))}


def _assert_checkpoint_values(got: dict[str, np.ndarray], reader: BundleReader) -> None:
    assert sorted(got) == sorted(reader.keys())
    for name, value in got.items():
        want = reader.get_tensor(name)
        assert value.dtype == want.dtype and value.shape == want.shape, name
        np.testing.assert_array_equal(value, want, err_msg=name)


def test_restore_op_of_a_tf_meta_graph_restores_the_checkpoint():
    meta = _meta(TRAIN_PREFIX + ".meta")
    sd = meta.saver_def
    reader = BundleReader(TRAIN_PREFIX)
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(meta)
        assert g.get_operation_by_name("save/RestoreV2").type == "RestoreV2"
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            before = _values(s)
            assert any(not np.array_equal(before[k], reader.get_tensor(k)) for k in before)  # the restore has work
            assert s.run(sd.restore_op_name, {sd.filename_tensor_name: TRAIN_PREFIX}) is None
            _assert_checkpoint_values(_values(s), reader)


def test_save_tensor_of_a_tf_meta_graph_writes_a_tf_bundle(tmp_path: Path):
    meta = _meta(TRAIN_PREFIX + ".meta")
    sd = meta.saver_def
    out = str(tmp_path / "sub" / "again")  # SaveV2 makes the directory, as TF's bundle writer
    with tf.Graph().as_default():
        tf.train.import_meta_graph(meta)
        with tf.Session() as s:
            s.run(sd.restore_op_name, {sd.filename_tensor_name: TRAIN_PREFIX})
            got = s.run(sd.save_tensor_name, {sd.filename_tensor_name: out})
    assert got == out.encode()
    assert sorted(os.listdir(tmp_path / "sub")) == ["again.data-00000-of-00001", "again.index"]
    source = BundleReader(TRAIN_PREFIX)
    _assert_checkpoint_values({k: source.get_tensor(k) for k in source.keys()}, BundleReader(out))


def test_imported_saver_names_tfs_saver_sub_graph():
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(TRAIN_PREFIX + ".meta")
        assert saver.saver_def.restore_op_name == "save/restore_all"
        assert saver.as_saver_def().filename_tensor_name == "save/Const:0"
    with tf.Graph().as_default() as g:
        saver = tf.train.import_meta_graph(TRAIN_PREFIX + ".meta", import_scope="m")
        sd = saver.saver_def
        assert (sd.restore_op_name, sd.save_tensor_name) == ("m/save/restore_all", "m/save/control_dependency:0")
        with tf.Session() as s:
            s.run(sd.restore_op_name, {sd.filename_tensor_name: TRAIN_PREFIX})
            np.testing.assert_array_equal(s.run(g.get_tensor_by_name("m/conv1/bias/Read/ReadVariableOp:0")),
                                          BundleReader(TRAIN_PREFIX).get_tensor("conv1/bias"))
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        assert tf.train.Saver().saver_def.restore_op_name == ""  # jaxsess's own: no graph nodes


def test_saver_restore_path_is_unchanged():
    """Not fetched, the saver ops do not run: ``Saver.restore`` (jaxsess's own) is unchanged."""
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(TRAIN_PREFIX + ".meta")
        with tf.Session() as s:
            saver.restore(s, TRAIN_PREFIX)
            _assert_checkpoint_values(_values(s), BundleReader(TRAIN_PREFIX))


def test_sharded_saver_of_a_tf1_saved_model_restores_and_merges(tmp_path: Path):
    meta = _saved_model_meta()
    sd = meta.saver_def
    assert sd.sharded
    prefix = str(SAVED_MODEL / "variables" / "variables")
    out = str(tmp_path / "model")
    with tf.Graph().as_default():
        tf.train.import_meta_graph(meta)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(sd.restore_op_name, {sd.filename_tensor_name: prefix})
            _assert_checkpoint_values(_values(s), BundleReader(prefix))
            assert s.run(sd.save_tensor_name, {sd.filename_tensor_name: out}) == out.encode()
    # ShardedFilename wrote model_temp/part-00000-of-00001; MergeV2Checkpoints moved it and removed the directory
    assert sorted(os.listdir(tmp_path)) == ["model.data-00000-of-00001", "model.index"]
    source = BundleReader(prefix)
    _assert_checkpoint_values({k: source.get_tensor(k) for k in source.keys()}, BundleReader(out))


def test_saved_model_loader_keeps_the_restore_op(tmp_path: Path):
    with tf.Graph().as_default() as g, tf.Session(graph=g) as s:
        meta = tf.saved_model.loader.load(s, ["serve"], str(SAVED_MODEL))
        sd = meta.saver_def
        prefix = str(SAVED_MODEL / "variables" / "variables")
        loaded = _values(s)
        _assert_checkpoint_values(loaded, BundleReader(prefix))
        s.run(tf.global_variables_initializer())  # other values, then TF's restore op brings the checkpoint back
        s.run(sd.restore_op_name, {sd.filename_tensor_name: prefix})
        _assert_checkpoint_values(_values(s), BundleReader(prefix))


# -- the ops one at a time, on GraphDefs as TF writes them ------------------------------------------


def _string_const(gd: Any, name: str, values: list[str] | str) -> None:
    n = gd.node.add(name=name, op="Const")
    arr = np.asarray([v.encode() for v in values] if isinstance(values, list) else values.encode(), dtype=object)
    n.attr["value"].tensor.CopyFrom(_tfproto.ndarray_to_tensor_proto(arr))
    n.attr["dtype"].type = _tfproto.types_pb2.DT_STRING


def _restore_graph(names: list[str], slices: list[str], dtypes: list[Any]) -> tf.Graph:
    gd = _tfproto.GraphDef()
    p = gd.node.add(name="prefix", op="Placeholder")
    p.attr["dtype"].type = _tfproto.types_pb2.DT_STRING
    _string_const(gd, "names", names)
    _string_const(gd, "slices", slices)
    r = gd.node.add(name="restore", op="RestoreV2", input=["prefix", "names", "slices"])
    r.attr["dtypes"].list.type.extend(_tfproto.dtype_to_enum(np.dtype(d)) for d in dtypes)
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    return g


def _bundle(tmp_path: Path) -> str:
    prefix = str(tmp_path / "ckpt")
    write_bundle(prefix, {"a": np.arange(6, dtype=np.float32).reshape(3, 2), "b": np.array([7, 8], np.int64)})
    return prefix


def test_restore_v2_reads_named_tensors_and_slices(tmp_path: Path):
    prefix = _bundle(tmp_path)
    g = _restore_graph(["b", "a", "a"], ["", "", "3 2 1,2:-"], [np.int64, np.float32, np.float32])
    with tf.Session(graph=g) as s:
        b, a, part = s.run([f"restore:{i}" for i in range(3)], {"prefix:0": prefix})
    np.testing.assert_array_equal(b, [7, 8])
    assert b.dtype == np.int64
    np.testing.assert_array_equal(a, np.arange(6, dtype=np.float32).reshape(3, 2))
    np.testing.assert_array_equal(part, [[2, 3], [4, 5]])


def test_restore_v2_errors_as_tf(tmp_path: Path):
    prefix = _bundle(tmp_path)
    with tf.Session(graph=_restore_graph(["nope"], [""], [np.float32])) as s:
        with pytest.raises(errors.NotFoundError, match=f"Key nope not found in checkpoint {prefix}"):
            s.run("restore:0", {"prefix:0": prefix})
        missing = str(tmp_path / "missing")
        with pytest.raises(errors.NotFoundError, match=f"Failed to find any matching files for {missing}"):
            s.run("restore:0", {"prefix:0": missing})
    with tf.Session(graph=_restore_graph(["b"], [""], [np.float32])) as s:
        with pytest.raises(errors.InvalidArgumentError,
                           match="tensor_name = b; expected dtype float32 does not equal original dtype int64"):
            s.run("restore:0", {"prefix:0": prefix})
    with tf.Session(graph=_restore_graph(["a"], ["4 2 -:-"], [np.float32])) as s:
        with pytest.raises(errors.InvalidArgumentError, match="does not match the shape stored"):
            s.run("restore:0", {"prefix:0": prefix})


def test_save_v2_refuses_slices_and_round_trips_through_graph_def(tmp_path: Path):
    with tf.Graph().as_default() as g:
        gd = _tfproto.GraphDef()
        _string_const(gd, "prefix", str(tmp_path / "out"))
        _string_const(gd, "names", ["x"])
        _string_const(gd, "slices", ["2 0,1"])
        x = gd.node.add(name="x", op="Const")
        x.attr["value"].tensor.CopyFrom(_tfproto.ndarray_to_tensor_proto(np.array([1.0, 2.0], np.float32)))
        x.attr["dtype"].type = _tfproto.types_pb2.DT_FLOAT
        save = gd.node.add(name="save", op="SaveV2", input=["prefix", "names", "slices", "x"])
        save.attr["dtypes"].list.type.append(_tfproto.types_pb2.DT_FLOAT)
        tf.import_graph_def(gd, name="")
        exported = {n.name: n for n in g.as_graph_def().node}
        assert exported["save"].op == "SaveV2"
        assert list(exported["save"].attr["dtypes"].list.type) == [_tfproto.types_pb2.DT_FLOAT]
        with tf.Session() as s, pytest.raises(errors.UnimplementedError, match="SaveV2 of a slice"):
            s.run("save")
    assert not os.path.exists(tmp_path / "out.index")


def test_merge_v2_checkpoints_merges_shards_and_deletes_old_dirs(tmp_path: Path):
    (tmp_path / "tmp").mkdir()
    a, b = str(tmp_path / "tmp" / "part-0"), str(tmp_path / "tmp" / "part-1")
    write_bundle(a, {"x": np.array([1.0], np.float32)})
    write_bundle(b, {"y": np.array([2, 3], np.int32)})
    dest = str(tmp_path / "merged")
    with tf.Graph().as_default():
        gd = _tfproto.GraphDef()
        _string_const(gd, "sources", [a, b])
        _string_const(gd, "dest", dest)
        m = gd.node.add(name="merge", op="MergeV2Checkpoints", input=["sources", "dest"])
        m.attr["delete_old_dirs"].b = True
        tf.import_graph_def(gd, name="")
        with tf.Session() as s:
            s.run("merge")
            with pytest.raises(errors.NotFoundError, match="part-0.index"):
                s.run("merge")  # the sources are gone
    assert sorted(os.listdir(tmp_path)) == ["merged.data-00000-of-00001", "merged.index"]
    r = BundleReader(dest)
    np.testing.assert_array_equal(r.get_tensor("x"), [1.0])
    np.testing.assert_array_equal(r.get_tensor("y"), [2, 3])


def test_runs_needing_no_saver_op_take_the_plan_cache_path():
    """The saver sub-graph makes the graph a host graph (string tensors); runs that need none of its
    ops are remembered as such and then skip the host pass, while the restore op still runs each time."""
    meta = _meta(TRAIN_PREFIX + ".meta")
    sd = meta.saver_def
    want = BundleReader(TRAIN_PREFIX).get_tensor("conv1/bias")
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(meta)
        bias = g.get_tensor_by_name("conv1/bias/Read/ReadVariableOp:0")
        zero = g.get_operation_by_name("conv1/bias/Assign")  # the initializer: zeros
        with tf.Session() as s:
            for _ in range(2):
                s.run(zero)
                assert not np.array_equal(s.run(bias), want)
                s.run(sd.restore_op_name, {sd.filename_tensor_name: TRAIN_PREFIX})
                np.testing.assert_array_equal(s.run(bias), want)
            assert ((bias,), ()) in s._no_host_keys
            assert not any(g.get_operation_by_name(sd.restore_op_name) in k[0] for k in s._no_host_keys)


def test_training_goes_on_after_tfs_restore_op_with_tfs_losses():
    """The tutorial's resume, with TF's restore op instead of ``Saver.restore``: the losses of two
    steps of the graph's own ``train_op`` are TF's (``tf1_train.npz``, recorded by real TF)."""
    gold = np.load(MODELS / "tf1_train.npz")
    meta = _meta(TRAIN_PREFIX + ".meta")
    sd = meta.saver_def
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(meta)
        loss = g.get_tensor_by_name("loss:0")
        train_op = tf.get_collection("train_op")[0]
        feed = {"x:0": gold["x"], "y:0": gold["y"]}
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(sd.restore_op_name, {sd.filename_tensor_name: TRAIN_PREFIX})
            losses = [s.run([loss, train_op], feed)[0] for _ in range(2)]
            losses.append(s.run(loss, feed))
    np.testing.assert_allclose(np.array(losses, np.float32), gold["losses"], rtol=1e-4)
