"""Fuzz tests of every file loader (issue 12): random and mutated bytes, deep structures.

Only the documented error classes may come out: checkpoints raise
``DataLossError`` (``NotFoundError`` for a missing tensor), the checkpoint
state file gives ``None``, graph defs and meta graphs raise ``ValueError`` or
``TypeError``. Nothing else (no ``AttributeError``, ``RecursionError``,
``struct.error``...), and no code from the file ever runs.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import jaxsess as tf
from jaxsess import errors
from jaxsess._core.graph._graph_def import PRIVATE_ATTRS, read_graph_def
from jaxsess._tf1.train import _checkpoint as _checkpoint
from jaxsess._tf1.train._meta_graph import read_meta_graph_file

FIXTURES = Path(__file__).parent / "fixtures" / "tf"
INDEX = (FIXTURES / "ckpt" / "model-3.index").read_bytes()
DATA = (FIXTURES / "ckpt" / "model-3.data-00000-of-00001").read_bytes()
FROZEN = (FIXTURES / "frozen_mlp.pb").read_bytes()
META = (FIXTURES / "ckpt" / "model-3.meta").read_bytes()
EVENTS = (FIXTURES / "events" / "events.out.tfevents.fixture").read_bytes()

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _mutate(data: bytes, edits: list[tuple[int, int]], cut: int | None) -> bytes:
    b = bytearray(data)
    for pos, val in edits:
        if b:
            b[pos % len(b)] = val
    return bytes(b[:cut] if cut is not None else b)


_edits = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), max_size=6)
_cut = st.one_of(st.none(), st.integers(0, 400))


def _read_all(prefix: str) -> None:
    reader = _checkpoint.BundleReader(prefix)
    for k in reader.keys():
        reader.get_tensor(k)


@FUZZ
@given(edits=_edits, cut=_cut, data_edits=_edits)
def test_v2_checkpoint_mutations_raise_only_data_loss(edits, cut, data_edits) -> None:
    d = tempfile.mkdtemp()
    try:
        prefix = os.path.join(d, "m")
        Path(prefix + ".index").write_bytes(_mutate(INDEX, edits, cut))
        Path(prefix + ".data-00000-of-00001").write_bytes(_mutate(DATA, data_edits, None))
        try:
            _read_all(prefix)
        except (errors.DataLossError, errors.NotFoundError) as e:
            assert prefix in str(e) or "Key" in str(e)
    finally:
        shutil.rmtree(d)


@FUZZ
@given(data=st.binary(max_size=300))
def test_v2_checkpoint_random_bytes_raise_only_data_loss(data) -> None:
    d = tempfile.mkdtemp()
    try:
        prefix = os.path.join(d, "m")
        Path(prefix + ".index").write_bytes(data)
        with pytest.raises(errors.DataLossError):
            _read_all(prefix)
    finally:
        shutil.rmtree(d)


@FUZZ
@given(text=st.one_of(st.text(max_size=200), st.integers(1, 3000).map(lambda n: "model_checkpoint_path: " + "{" * n),
                      st.integers(1, 3000).map(lambda n: '{"model_checkpoint_path": ' + "[" * n + "]" * n + "}")))
def test_checkpoint_state_file_is_none_or_a_state(text) -> None:
    d = tempfile.mkdtemp()
    try:
        Path(d, "checkpoint").write_text(text)
        state = tf.train.get_checkpoint_state(d)
        assert state is None or isinstance(state.model_checkpoint_path, str)
        assert tf.train.latest_checkpoint(d) is None  # no checkpoint files exist there
    finally:
        shutil.rmtree(d)


def _import(gd: tf.GraphDef) -> None:
    with tf.Graph().as_default():
        tf.import_graph_def(gd)


@FUZZ
@given(edits=_edits, cut=st.one_of(st.none(), st.integers(0, len(FROZEN))))
def test_graph_def_mutations_raise_only_value_errors(edits, cut) -> None:
    d = tempfile.mkdtemp()
    try:
        path = os.path.join(d, "g.pb")
        Path(path).write_bytes(_mutate(FROZEN, edits, cut))
        try:
            _import(read_graph_def(path))
        except ValueError:
            pass
    finally:
        shutil.rmtree(d)


@FUZZ
@given(depth=st.integers(1, 20000), node=st.integers(0, 2))
def test_deep_private_attributes_raise_value_error(depth, node) -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        tf.add(x, tf.constant([1.0, 2.0], name="c"), name="y")
    gd = g.as_graph_def()
    deep = '{"tuple": [' * depth + "]}" * depth
    gd.node[node].attr[PRIVATE_ATTRS].s = ('{"op": "Const", "attrs": {"value": ' + deep + "}}").encode()
    with pytest.raises(ValueError, match=f"node '{gd.node[node].name}'"):
        _import(gd)


@FUZZ
@given(edits=_edits, cut=st.one_of(st.none(), st.integers(0, len(META))))
def test_meta_graph_mutations_raise_only_value_errors(edits, cut) -> None:
    d = tempfile.mkdtemp()
    try:
        path = os.path.join(d, "m.meta")
        Path(path).write_bytes(_mutate(META, edits, cut))
        try:
            with tf.Graph().as_default():
                tf.train.import_meta_graph(read_meta_graph_file(path))
        except (ValueError, TypeError):
            pass
    finally:
        shutil.rmtree(d)


@FUZZ
@given(data=st.binary(max_size=400))
def test_npz_checkpoint_random_bytes_raise_only_data_loss(data) -> None:
    d = tempfile.mkdtemp()
    try:
        Path(d, "m.npz").write_bytes(data)
        with tf.Graph().as_default():
            v = tf.Variable(np.zeros(2, np.float32), name="v")
            with tf.Session() as s, pytest.raises(errors.DataLossError):
                tf.train.Saver([v]).restore(s, os.path.join(d, "m"))
    finally:
        shutil.rmtree(d)


@FUZZ
@given(edits=_edits, cut=st.one_of(st.none(), st.integers(0, len(EVENTS))))
def test_event_file_mutations_raise_only_data_loss(edits, cut) -> None:
    d = tempfile.mkdtemp()
    try:
        path = os.path.join(d, "events.out.tfevents.x")
        Path(path).write_bytes(_mutate(EVENTS, edits, cut))
        try:
            for event in tf.train.summary_iterator(path):
                assert isinstance(event, tf.Event)
        except errors.DataLossError as e:
            assert path in str(e)
    finally:
        shutil.rmtree(d)
