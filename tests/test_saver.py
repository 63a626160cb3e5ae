"""Tests of jaxsess.train.Saver: TF V2 checkpoints, the ``checkpoint`` state file, older .npz files, errors."""

from __future__ import annotations

import json
import os
import pickle

import numpy as np
import pytest
from google.protobuf import text_format

import jaxsess as tf
from jaxsess import errors, train
from jaxsess._core import _tfproto as _tfproto


@pytest.fixture(autouse=True)
def _fresh_graph() -> None:
    tf.reset_default_graph()


def _model() -> dict[str, tf.Variable]:
    with tf.name_scope("dense"):
        kernel = tf.Variable(np.zeros((2, 3), np.float32), name="kernel")
        bias = tf.Variable(np.zeros(3, np.float32), name="bias")
    count = tf.Variable(np.int32(0), name="count", trainable=False)
    return {"kernel": kernel, "bias": bias, "count": count}


def _read(path) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _state(path) -> _tfproto.CheckpointStateProto:
    return text_format.Parse(_read(path).decode(), _tfproto.CheckpointStateProto())


def _write_npz_checkpoint(path, arrays: dict, dtypes: dict | None = None) -> None:
    """A checkpoint in the older jaxsess ``.npz`` format."""
    meta = {"format": "jaxsess-npz", "version": 1, "dtypes": dtypes or {k: np.asarray(a).dtype.name for k, a in arrays.items()}}
    with open(path, "wb") as f:
        np.savez(f, **arrays, __jaxsess_meta__=np.array(json.dumps(meta)))


KERNEL = np.arange(6, dtype=np.float32).reshape(2, 3) / 7.0
BIAS = np.array([1.5, -2.0, 0.25], np.float32)


def _saved(tmp_path, **save_kwargs) -> str:
    """Builds the model, sets values, saves; returns the prefix written."""
    m = _model()
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        m["kernel"].load(KERNEL, sess)
        m["bias"].load(BIAS, sess)
        m["count"].load(7, sess)
        return saver.save(sess, str(tmp_path / "model"), **save_kwargs)


# -- round trip -----------------------------------------------------------------------


def test_round_trip_into_fresh_session(tmp_path) -> None:
    m = _model()
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        m["kernel"].load(KERNEL, sess)
        m["bias"].load(BIAS, sess)
        m["count"].load(7, sess)
        prefix = saver.save(sess, str(tmp_path / "model"))
    assert prefix == str(tmp_path / "model")
    assert os.path.isfile(prefix + ".index") and os.path.isfile(prefix + ".data-00000-of-00001")
    with tf.Session() as sess:
        saver.restore(sess, prefix)  # no initializer: restore initialises
        k, b, c = sess.run([m["kernel"], m["bias"], m["count"]])
        np.testing.assert_array_equal(k, KERNEL)
        np.testing.assert_array_equal(b, BIAS)
        assert int(c) == 7 and c.dtype == np.int32
        # restored values are session state: training ops run on them
        sess.run(m["bias"].assign_add(np.ones(3, np.float32)))
        np.testing.assert_array_equal(sess.run(m["bias"]), BIAS + 1)


def test_file_format_is_tf_v2_checkpoint(tmp_path) -> None:
    prefix = _saved(tmp_path)
    reader = train.NewCheckpointReader(prefix)
    assert reader.get_variable_to_shape_map() == {"dense/kernel": [2, 3], "dense/bias": [3], "count": []}
    assert {k: d.name for k, d in reader.get_variable_to_dtype_map().items()} == {
        "dense/kernel": "float32", "dense/bias": "float32", "count": "int32"}
    np.testing.assert_array_equal(reader.get_tensor("dense/kernel"), KERNEL)
    assert reader.get_tensor("count").shape == () and int(reader.get_tensor("count")) == 7
    assert train.list_variables(str(tmp_path)) == [("count", []), ("dense/bias", [3]), ("dense/kernel", [2, 3])]
    state = _state(tmp_path / "checkpoint")  # TF's text-format CheckpointState
    assert state.model_checkpoint_path == prefix  # an absolute directory: absolute paths, as TF1
    assert list(state.all_model_checkpoint_paths) == [prefix]


def test_older_npz_checkpoints_still_restore(tmp_path) -> None:
    m = _model()
    _write_npz_checkpoint(tmp_path / "old.npz", {"dense/kernel": KERNEL, "dense/bias": BIAS, "count": np.int32(4)})
    with open(tmp_path / "checkpoint", "w") as f:
        json.dump({"model_checkpoint_path": "old", "all_model_checkpoint_paths": ["old"]}, f)
    assert train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "old")
    with tf.Session() as sess:
        train.Saver().restore(sess, str(tmp_path / "old"))
        np.testing.assert_array_equal(sess.run(m["kernel"]), KERNEL)
        assert int(sess.run(m["count"])) == 4
    assert train.load_checkpoint(str(tmp_path)).get_variable_to_shape_map()["dense/kernel"] == [2, 3]


def test_relative_index_paths(tmp_path, monkeypatch) -> None:
    _model()
    monkeypatch.chdir(tmp_path)
    os.mkdir("ckpts")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        p_rel = train.Saver().save(sess, os.path.join("ckpts", "model"), global_step=1)
        p_abs = train.Saver(save_relative_paths=True).save(sess, str(tmp_path / "model"), global_step=2)
    assert p_rel == os.path.join("ckpts", "model-1")
    index = _state(tmp_path / "ckpts" / "checkpoint")
    assert index.model_checkpoint_path == "model-1"  # relative to the index's directory
    assert train.latest_checkpoint("ckpts") == p_rel
    index = _state(tmp_path / "checkpoint")
    assert list(index.all_model_checkpoint_paths) == ["model-2"]
    os.rename(tmp_path / "ckpts", tmp_path / "moved")  # relative indexes survive a move
    assert train.latest_checkpoint("moved") == os.path.join("moved", "model-1")
    assert train.latest_checkpoint(str(tmp_path)) == p_abs


def test_restore_into_new_graph_and_optimizer_slots(tmp_path) -> None:
    w = tf.Variable(np.ones((2, 2), np.float32), name="w")
    step = train.get_or_create_global_step()
    opt = train.AdamOptimizer(0.1)
    train_op = opt.minimize(tf.reduce_sum(tf.square(w)), global_step=step)
    saver = train.Saver(max_to_keep=None)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train_op)
        path = saver.save(sess, str(tmp_path / "ckpt"), global_step=step)
        before = {v.op.name: np.asarray(sess.run(v)) for v in tf.global_variables()}
        sess.run(train_op)
        after_one_more = np.asarray(sess.run(w))
    assert path == str(tmp_path / "ckpt-3")
    assert {"w", "w/Adam", "w/Adam_1", "beta1_power", "beta2_power", "global_step"} <= set(before)

    tf.reset_default_graph()
    w = tf.Variable(np.zeros((2, 2), np.float32), name="w")
    step = train.get_or_create_global_step()
    train_op = train.AdamOptimizer(0.1).minimize(tf.reduce_sum(tf.square(w)), global_step=step)
    saver = train.Saver()
    with tf.Session() as sess:
        saver.restore(sess, train.latest_checkpoint(str(tmp_path)))
        for v in tf.global_variables():
            np.testing.assert_array_equal(sess.run(v), before[v.op.name])
        sess.run(train_op)  # training continues exactly where it stopped
        np.testing.assert_array_equal(sess.run(w), after_one_more)
        assert train.global_step(sess, step) == 4


def test_var_list_dict_and_subset(tmp_path) -> None:
    m = _model()
    saver = train.Saver({"weights": m["kernel"]})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        m["kernel"].load(KERNEL, sess)
        prefix = saver.save(sess, str(tmp_path / "sub"))
    assert train.NewCheckpointReader(prefix).get_variable_to_shape_map() == {"weights": [2, 3]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        train.Saver([m["kernel"]], max_to_keep=1)  # list form builds too
        saver.restore(sess, prefix)
        np.testing.assert_array_equal(sess.run(m["kernel"]), KERNEL)
        np.testing.assert_array_equal(sess.run(m["bias"]), np.zeros(3))


def test_names_that_are_savez_parameters(tmp_path) -> None:
    f = tf.Variable(np.array([1.0, 2.0], np.float32), name="file")
    a = tf.Variable(np.int32(3), name="allow_pickle")
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        prefix = saver.save(sess, str(tmp_path / "odd"))
    assert {"file", "allow_pickle"} <= set(train.NewCheckpointReader(prefix).get_variable_to_shape_map())
    with tf.Session() as sess:
        saver.restore(sess, prefix)
        np.testing.assert_array_equal(sess.run(f), [1.0, 2.0])
        assert int(sess.run(a)) == 3


def test_bfloat16_round_trip(tmp_path) -> None:
    v = tf.Variable(np.array([1.5, -2.25], np.float32), dtype=tf.bfloat16, name="half")
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        prefix = saver.save(sess, str(tmp_path / "bf"))
    with tf.Session() as sess:
        saver.restore(sess, prefix)
        got = sess.run(v)
        assert got.dtype == tf.bfloat16.np_dtype
        np.testing.assert_array_equal(np.asarray(got, np.float32), [1.5, -2.25])


# -- index, latest_checkpoint, max_to_keep ------------------------------------------------------


def test_global_step_suffix_latest_checkpoint_and_exists(tmp_path) -> None:
    m = _model()
    saver = train.Saver()
    d = str(tmp_path)
    assert train.latest_checkpoint(d) is None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        p1 = saver.save(sess, os.path.join(d, "model"), global_step=10)
        p2 = saver.save(sess, os.path.join(d, "model"), global_step=m["count"])
    assert p1 == os.path.join(d, "model-10")
    assert p2 == os.path.join(d, "model-0")
    assert train.checkpoint_exists(p1) and train.checkpoint_exists(p2)
    assert not train.checkpoint_exists(os.path.join(d, "model-11"))
    assert train.latest_checkpoint(d) == p2
    state = train.get_checkpoint_state(d)
    assert state.all_model_checkpoint_paths == [p1, p2]
    # a checkpoint whose file is gone is not "latest"
    os.remove(p2 + ".index")
    assert train.latest_checkpoint(d) is None
    # an unreadable index is "no checkpoint"
    with open(os.path.join(d, "checkpoint"), "w") as f:
        f.write("not a checkpoint state {")
    assert train.latest_checkpoint(d) is None


def test_max_to_keep_deletes_old_checkpoints(tmp_path) -> None:
    _model()
    saver = train.Saver(max_to_keep=2)
    base = str(tmp_path / "m")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        paths = [saver.save(sess, base, global_step=i) for i in range(4)]
    assert [os.path.exists(p + ".index") for p in paths] == [False, False, True, True]
    assert saver.last_checkpoints == paths[2:]
    state = train.get_checkpoint_state(str(tmp_path))
    assert state.all_model_checkpoint_paths == paths[2:]
    assert state.model_checkpoint_path == paths[3]
    assert sorted(os.listdir(tmp_path)) == [
        "checkpoint", "m-2.data-00000-of-00001", "m-2.index", "m-2.meta",
        "m-3.data-00000-of-00001", "m-3.index", "m-3.meta"]


def test_max_to_keep_none_keeps_all_and_resave_same_prefix(tmp_path) -> None:
    _model()
    saver = train.Saver(max_to_keep=None)
    base = str(tmp_path / "m")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        paths = [saver.save(sess, base, global_step=i) for i in range(6)]
        saver.save(sess, base, global_step=2)  # saving a prefix again moves it last
    assert all(os.path.exists(p + ".index") for p in paths)
    assert saver.last_checkpoints[-1] == paths[2]
    assert len(saver.last_checkpoints) == 6
    assert train.latest_checkpoint(str(tmp_path)) == paths[2]


def test_write_state_false_leaves_index(tmp_path) -> None:
    _model()
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        p = saver.save(sess, str(tmp_path / "x"), write_state=False)
    assert os.path.exists(p + ".index")
    assert not os.path.exists(tmp_path / "checkpoint")


# -- errors ----------------------------------------------------------------------------------------


def test_restore_shape_mismatch(tmp_path) -> None:
    prefix = _saved(tmp_path)
    tf.reset_default_graph()
    with tf.name_scope("dense"):
        tf.Variable(np.zeros((3, 2), np.float32), name="kernel")
        tf.Variable(np.zeros(3, np.float32), name="bias")
    tf.Variable(np.int32(0), name="count")
    saver = train.Saver()
    with tf.Session() as sess, pytest.raises(errors.InvalidArgumentError) as info:
        saver.restore(sess, prefix)
    msg = str(info.value)
    assert "dense/kernel" in msg and "[3, 2]" in msg and "[2, 3]" in msg


def test_restore_dtype_mismatch(tmp_path) -> None:
    prefix = _saved(tmp_path)
    tf.reset_default_graph()
    with tf.name_scope("dense"):
        tf.Variable(np.zeros((2, 3), np.float32), name="kernel")
        tf.Variable(np.zeros(3, np.float32), name="bias")
    tf.Variable(np.float32(0), name="count")
    saver = train.Saver()
    with tf.Session() as sess, pytest.raises(errors.InvalidArgumentError) as info:
        saver.restore(sess, prefix)
    msg = str(info.value)
    assert "count" in msg and "float32" in msg and "int32" in msg


def test_restore_missing_variable_restores_nothing(tmp_path) -> None:
    prefix = _saved(tmp_path)
    tf.reset_default_graph()
    m = _model()
    extra = tf.Variable(np.zeros(4, np.float32), name="extra")
    saver = train.Saver()
    with tf.Session() as sess:
        with pytest.raises(errors.NotFoundError) as info:
            saver.restore(sess, prefix)
        assert "extra" in str(info.value)
        assert "not found in checkpoint" in str(info.value)
        # all or nothing: the variables found were not written either
        assert not sess.is_initialized(m["kernel"].op)
        assert not sess.is_initialized(extra.op)


def test_restore_missing_file(tmp_path) -> None:
    _model()
    saver = train.Saver()
    with tf.Session() as sess:
        with pytest.raises(ValueError, match="not a valid checkpoint"):
            saver.restore(sess, str(tmp_path / "nope"))
        with pytest.raises(ValueError, match="None"):
            saver.restore(sess, None)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "npy", "no_meta", "pickled", "raw_member", "dtypes_list"])
def test_corrupted_npz_checkpoint_is_data_loss(tmp_path, damage: str) -> None:
    prefix = str(tmp_path / "model")
    path = prefix + ".npz"
    _write_npz_checkpoint(path, {"dense/kernel": KERNEL, "dense/bias": BIAS, "count": np.int32(1)})
    if damage == "garbage":
        with open(path, "wb") as f:
            f.write(b"this is not a zip file at all" * 10)
    elif damage == "truncated":
        data = _read(path)
        with open(path, "wb") as f:
            f.write(data[: len(data) // 2])
    elif damage == "npy":
        with open(path, "wb") as f:
            np.save(f, KERNEL)
    elif damage == "no_meta":
        with open(path, "wb") as f:
            np.savez(f, **{"dense/kernel": KERNEL, "dense/bias": BIAS, "count": np.int32(1)})
    elif damage == "pickled":  # an object array: loading it must not unpickle (run code)
        with open(path, "wb") as f:
            np.savez(f, **{"dense/kernel": np.array([{"a": 1}], dtype=object), "__jaxsess_meta__": np.array("{}")})
    elif damage == "raw_member":  # repro saver_restore_malformed_checkpoint_attributeerror.py
        import zipfile

        with zipfile.ZipFile(path, "w") as z:
            meta = json.dumps({"format": "jaxsess-npz", "version": 1, "dtypes": {"count": "int32"}})
            buf = __import__("io").BytesIO()
            np.lib.format.write_array(buf, np.array(meta))
            z.writestr("__jaxsess_meta__.npy", buf.getvalue())
            z.writestr("count.npy", b"not an npy member")
    elif damage == "dtypes_list":
        _write_npz_checkpoint(path, {"dense/kernel": KERNEL}, dtypes=["dense/kernel"])  # type: ignore[arg-type]
    m = _model()
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(errors.DataLossError) as info:
            saver.restore(sess, prefix)
        assert path in str(info.value)
        np.testing.assert_array_equal(sess.run(m["kernel"]), np.zeros((2, 3)))  # unchanged


@pytest.mark.parametrize("damage", ["garbage", "truncated_index", "flip_index", "flip_data", "short_data", "no_data"])
def test_corrupted_v2_checkpoint_is_data_loss(tmp_path, damage: str) -> None:
    prefix = _saved(tmp_path)
    index, data = prefix + ".index", prefix + ".data-00000-of-00001"
    raw_index, raw_data = _read(index), _read(data)
    blamed = index
    if damage == "garbage":
        with open(index, "wb") as f:
            f.write(b"this is not a table" * 10)
    elif damage == "truncated_index":
        with open(index, "wb") as f:
            f.write(raw_index[: len(raw_index) // 2])
    elif damage == "flip_index":
        with open(index, "wb") as f:
            f.write(bytes([raw_index[0] ^ 0xFF]) + raw_index[1:])
    elif damage == "flip_data":
        blamed = data
        with open(data, "wb") as f:
            f.write(raw_data[:-1] + bytes([raw_data[-1] ^ 0xFF]))
    elif damage == "short_data":
        blamed = data
        with open(data, "wb") as f:
            f.write(raw_data[:5])
    elif damage == "no_data":
        blamed = data
        os.remove(data)
    tf.reset_default_graph()
    m = _model()
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(errors.DataLossError) as info:
            saver.restore(sess, prefix)
        assert blamed in str(info.value)
        for v in m.values():  # all or nothing
            assert not np.asarray(sess.run(v)).any()


def test_save_on_closed_session_is_closed_session_error(tmp_path) -> None:
    # repro saver_save_closed_session_misleading_error.py
    _model()
    saver = train.Saver()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        saver.save(sess, str(tmp_path / "m"))
    with pytest.raises(RuntimeError, match="closed Session"):
        saver.restore(sess, str(tmp_path / "m"))


def test_latest_checkpoint_on_malformed_state_is_none(tmp_path) -> None:
    # repro latest_checkpoint_deep_json_recursionerror.py
    for text in ('{"model_checkpoint_path": ' + "[" * 100000 + "]" * 100000 + "}",
                 "model_checkpoint_path: " + "{" * 100000, "\xff\xfe", "all_model_checkpoint_paths: 3"):
        with open(tmp_path / "checkpoint", "w") as f:
            f.write(text)
        assert train.latest_checkpoint(str(tmp_path)) is None
        assert train.get_checkpoint_state(str(tmp_path)) is None


def test_pickle_payload_never_executes(tmp_path) -> None:
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    _model()
    path = tmp_path / "evil.npz"
    with open(path, "wb") as f:
        np.savez(f, **{"dense/kernel": np.array([Evil()], dtype=object)})
    pickle.dumps(Evil())  # the payload is valid
    with tf.Session() as sess, pytest.raises(errors.DataLossError):
        train.Saver().restore(sess, str(tmp_path / "evil"))
    assert not marker.exists()


def test_save_uninitialized_variable(tmp_path) -> None:
    _model()
    saver = train.Saver()
    with tf.Session() as sess, pytest.raises(errors.FailedPreconditionError, match="kernel"):
        saver.save(sess, str(tmp_path / "m"))
    assert os.listdir(tmp_path) == []


def test_save_errors(tmp_path) -> None:
    with pytest.raises(ValueError, match="No variables to save"):
        train.Saver()
    with tf.Session() as sess:
        assert train.Saver(allow_empty=True).save(sess, str(tmp_path / "e")) is None
    m = _model()
    assert train.Saver([m["kernel"], m["kernel"]]).build() is None  # the same variable twice is fine
    with pytest.raises(ValueError, match="reserved"):
        train.Saver({"__jaxsess_meta__": m["kernel"]})
    with pytest.raises(TypeError, match="Variables"):
        train.Saver([1.0])
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(ValueError, match="Parent directory"):
            saver.save(sess, str(tmp_path / "missing" / "deeper" / "m"))  # TF makes one level only
        with pytest.raises(TypeError, match="Session"):
            saver.save(object(), str(tmp_path / "m"))
    other = tf.Graph()
    with pytest.raises(ValueError, match="graph"), tf.Session(graph=other) as sess:
        saver.save(sess, str(tmp_path / "m"))


def test_atomic_write_leaves_no_partial_file(tmp_path, monkeypatch) -> None:
    m = _model()
    saver = train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        good = saver.save(sess, str(tmp_path / "model"), global_step=1)
        good_bytes = _read(good + ".index"), _read(good + ".data-00000-of-00001")
        index_bytes = _read(tmp_path / "checkpoint")
        m["kernel"].load(KERNEL, sess)

        real_fsync = os.fsync
        calls = []

        def failing_fsync(fd):  # the second file of a checkpoint fails to reach the disk
            calls.append(fd)
            if len(calls) % 2 == 0:
                raise OSError("disk full")
            real_fsync(fd)

        monkeypatch.setattr(os, "fsync", failing_fsync)
        with pytest.raises(OSError, match="disk full"):
            saver.save(sess, str(tmp_path / "model"), global_step=2)
        with pytest.raises(OSError, match="disk full"):
            saver.save(sess, str(tmp_path / "model"), global_step=1)  # overwrite attempt
    assert sorted(os.listdir(tmp_path)) == [
        "checkpoint", "model-1.data-00000-of-00001", "model-1.index", "model-1.meta"]
    assert (_read(good + ".index"), _read(good + ".data-00000-of-00001")) == good_bytes
    assert _read(tmp_path / "checkpoint") == index_bytes
    assert saver.last_checkpoints == [good]
