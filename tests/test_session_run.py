"""Tests of ``Session.run`` and friends, as ``tf.compat.v1.Session``.

Grouped as TF1's own ``session_test.py``: fetch structures, feeds, graph
binding and defaults, lifecycle and ownership, interactive sessions,
callables, errors, the plan cache and parallel runs.
"""

from __future__ import annotations

import collections
import functools
import gc
import inspect
import os
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import ResourceCleanupStrategy, errors
from jaxsess._core.graph._host import HOST_GRAPHS
from jaxsess._core.runtime import _graph_session as gs

CLOSED = "Attempted to use a closed Session."


def wait_for(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return predicate()
        time.sleep(0.001)
    return True


class Net:
    """A small graph: ``x: float32[?, 3]``, ``y = x + 1``, ``z = y * 2``, ``s = sum(z)``."""

    def __init__(self) -> None:
        self.graph = tf.Graph()
        with self.graph.as_default():
            self.x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
            self.y = tf.add(self.x, 1.0, name="y")
            self.z = tf.multiply(self.y, 2.0, name="z")
            self.s = tf.reduce_sum(self.z, name="s")
            self.c = tf.constant([1.0, 2.0, 3.0], name="c")
            self.op = tf.group(self.z, name="train")


@pytest.fixture
def net() -> Net:
    return Net()


@pytest.fixture
def sess(net: Net) -> Iterator[tf.Session]:
    s = tf.Session(graph=net.graph)
    try:
        yield s
    finally:
        s.close()


X = np.arange(6, dtype=np.float32).reshape(2, 3)


# -- fetch structures -----------------------------------------------------------


def test_fetch_single_tensor(net: Net, sess: tf.Session) -> None:
    out = sess.run(net.y, {net.x: X})
    assert type(out) is np.ndarray  # as TF1: a host value, the caller's
    assert out.dtype == np.float32 and out.shape == (2, 3)
    np.testing.assert_array_equal(out, X + 1)
    assert out.flags.writeable
    out[0, 0] = 100.0  # the caller's own copy: the next run is unaffected
    np.testing.assert_array_equal(sess.run(net.y, {net.x: X}), X + 1)


def test_host_values_outlive_the_session(net: Net, strategy: ResourceCleanupStrategy) -> None:
    s = tf.Session(graph=net.graph, cleanup=strategy)
    out = s.run({"y": net.y, "z": net.z, "s": tf.reduce_sum(net.c)}, {net.x: X})
    assert not any(s.owns(v) for v in out.values())
    assert s.stats().live_buffers == 0  # intermediates freed at once, nothing kept
    s.close()
    np.testing.assert_array_equal(out["y"] + 1, X + 2)
    assert type(out["s"]) is np.float32 and out["s"] == 6.0


def test_device_fetches_return_owned_jax_arrays(net: Net, sess: tf.Session) -> None:
    with tf.Session(graph=net.graph, device_fetches=True) as s:
        assert s.device_fetches and not sess.device_fetches
        out = s.run([net.y, net.c], {net.x: X})
        assert all(isinstance(v, jax.Array) and s.owns(v) for v in out)
        host = s.make_callable(net.y, [net.x], device_fetches=False)(X)
        assert type(host) is np.ndarray
    assert out[0].is_deleted()
    np.testing.assert_array_equal(host, X + 1)
    dev = sess.make_callable(net.y, [net.x], device_fetches=True)(X)
    assert isinstance(dev, jax.Array) and sess.owns(dev)
    np.testing.assert_array_equal(sess.make_callable(net.z, [net.y], device_fetches=True)(dev), 2 * (X + 1))


def test_fetch_scalar_and_int(net: Net) -> None:
    with net.graph.as_default():
        i = tf.constant(37)
    with tf.Session(graph=net.graph) as s:
        out = s.run(i)
        assert out.shape == () and out.dtype == np.int32 and int(out) == 37
        np.testing.assert_allclose(s.run(net.s, {net.x: X}), (2 * (X + 1)).sum())


def test_fetch_operation_gives_none(net: Net, sess: tf.Session) -> None:
    assert sess.run(net.op, {net.x: X}) is None
    assert sess.run("train", {net.x: X}) is None
    assert sess.run([net.op, net.y], {net.x: X})[0] is None


def test_fetch_by_name(net: Net, sess: tf.Session) -> None:
    np.testing.assert_array_equal(sess.run("y:0", {net.x: X}), X + 1)
    y, op = sess.run(["y:0", "z"], {"x:0": X})
    np.testing.assert_array_equal(y, X + 1)
    assert op is None  # an op name fetches the op


def test_fetch_list_and_tuple(net: Net, sess: tf.Session) -> None:
    out = sess.run([net.y, net.z], {net.x: X})
    assert type(out) is list and len(out) == 2
    np.testing.assert_array_equal(out[0], X + 1)
    np.testing.assert_array_equal(out[1], 2 * (X + 1))
    out = sess.run((net.z, net.y, net.op), {net.x: X})
    assert type(out) is tuple and len(out) == 3
    np.testing.assert_array_equal(out[1], X + 1)
    assert out[2] is None


def test_fetch_namedtuple(net: Net, sess: tf.Session) -> None:
    Pair = collections.namedtuple("Pair", ["first", "second"])
    out = sess.run(Pair(net.y, net.op), {net.x: X})
    assert type(out) is Pair
    np.testing.assert_array_equal(out.first, X + 1)
    assert out.second is None


def test_fetch_dict_and_ordereddict(net: Net, sess: tf.Session) -> None:
    out = sess.run({"y": net.y, "z": net.z, "nothing": net.op}, {net.x: X})
    assert type(out) is dict and set(out) == {"y", "z", "nothing"}
    np.testing.assert_array_equal(out["z"], 2 * (X + 1))
    assert out["nothing"] is None
    od = collections.OrderedDict([("z", net.z), ("c", net.c), ("y", net.y)])
    out = sess.run(od, {net.x: X})
    assert type(out) is collections.OrderedDict
    assert list(out) == ["z", "c", "y"]
    np.testing.assert_array_equal(out["c"], [1.0, 2.0, 3.0])


def test_fetch_defaultdict(net: Net, sess: tf.Session) -> None:
    dd: collections.defaultdict[str, Any] = collections.defaultdict(list)
    dd["y"] = net.y
    out = sess.run(dd, {net.x: X})
    assert type(out) is collections.defaultdict
    assert out.default_factory is list
    np.testing.assert_array_equal(out["y"], X + 1)


def test_fetch_arbitrary_nesting(net: Net, sess: tf.Session) -> None:
    Pair = collections.namedtuple("Pair", ["a", "b"])
    fetches = {"list": [net.y, (net.z, {"inner": [net.c]})], "nt": Pair(net.op, [net.s])}
    out = sess.run(fetches, {net.x: X})
    np.testing.assert_array_equal(out["list"][0], X + 1)
    np.testing.assert_array_equal(out["list"][1][0], 2 * (X + 1))
    np.testing.assert_array_equal(out["list"][1][1]["inner"][0], [1.0, 2.0, 3.0])
    assert type(out["list"][1]) is tuple and type(out["nt"]) is Pair
    assert out["nt"].a is None
    np.testing.assert_allclose(out["nt"].b[0], (2 * (X + 1)).sum())


def test_empty_structures_come_back_empty(net: Net, sess: tf.Session) -> None:
    assert sess.run([]) == []
    assert sess.run(()) == ()
    assert sess.run({}) == {}
    out = sess.run([[], {}, (), {"a": []}])
    assert out == [[], {}, (), {"a": []}]
    assert type(out[2]) is tuple
    od = sess.run(collections.OrderedDict())
    assert type(od) is collections.OrderedDict and not od


def test_duplicate_fetches_computed_once(net: Net, sess: tf.Session) -> None:
    out = sess.run([net.y, net.y, "y:0", {"again": net.y}], {net.x: X})
    assert out[0] is out[1] is out[2] is out[3]["again"]
    np.testing.assert_array_equal(out[0], X + 1)
    ((plan, *_),) = sess._plans.values()
    assert plan.fetches == [net.y]


# -- feeds -----------------------------------------------------------------------


def test_feed_by_tensor_and_by_name(net: Net, sess: tf.Session) -> None:
    a = sess.run(net.y, {net.x: X})
    b = sess.run(net.y, {"x:0": X})
    np.testing.assert_array_equal(a, b)


def test_feed_values_converted_as_numpy(net: Net, sess: tf.Session) -> None:
    out = sess.run(net.y, {net.x: [[1, 2, 3]]})  # Python ints
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[2.0, 3.0, 4.0]])
    out = sess.run(net.y, {net.x: np.ones((1, 3), np.float64)})
    assert out.dtype == np.float32
    with net.graph.as_default():
        i = tf.placeholder(tf.int32, [], name="i")
        b = tf.placeholder(tf.bool, [2], name="b")
    assert int(sess.run(i, {i: 2.7})) == int(np.asarray(2.7, np.int32))
    np.testing.assert_array_equal(sess.run(b, {b: [1, 0]}), [True, False])


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_feeds_fit_passes_only_arrays_needing_no_conversion(n: int) -> None:
    # The hot path's predicate (unrolled up to three feeds, a loop beyond):
    # True only for NumPy arrays of each tensor's dtype and static shape.
    from jaxsess._core.runtime._fetch import feeds_fit

    with tf.Graph().as_default():
        feeds = [tf.placeholder(tf.float32 if i % 2 else tf.int32, [2, i + 1]) for i in range(n)]
    good = [np.zeros((2, i + 1), np.float32 if i % 2 else np.int32) for i in range(n)]
    fit = feeds_fit(feeds)
    assert fit(tuple(good)) is True
    for i in range(n):
        for bad in (
            good[i].astype(np.float64),  # dtype
            np.zeros((3, i + 1), good[i].dtype),  # shape
            good[i].tolist(),  # a list
            jnp.asarray(good[i]),  # a jax.Array: converted by feed_value
            good[i].view(np.recarray),  # an ndarray subclass
            good[i][:, None],  # rank
        ):
            values = list(good)
            values[i] = bad
            assert fit(tuple(values)) is False, (i, type(bad))


def test_feeds_fit_with_unknown_dimensions_checks_rank_and_known_sizes() -> None:
    from jaxsess._core.runtime._fetch import feeds_fit

    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        anything = tf.placeholder(tf.float32)
    fit = feeds_fit([x, anything])
    scalar = np.float32(1.0)  # a NumPy scalar is not an ndarray: feed_value converts it
    for xv, av, want in (
        (np.zeros((5, 3), np.float32), np.zeros((2, 2, 2), np.float32), True),
        (np.zeros((0, 3), np.float32), np.zeros((), np.float32), True),
        (np.zeros((5, 4), np.float32), np.zeros(1, np.float32), False),
        (np.zeros((5, 3, 1), np.float32), np.zeros(1, np.float32), False),
        (np.zeros(3, np.float32), np.zeros(1, np.float32), False),
        (np.zeros((5, 3), np.float32), scalar, False),
    ):
        assert fit((xv, av)) is want


def test_run_converts_or_rejects_every_feed_the_hot_path_does_not_take(net: Net, sess: tf.Session) -> None:
    # Once the plan is cached, the hot path hands fitting arrays to XLA as
    # they are and everything else to feed_value: values and errors as TF1.
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    for _ in range(2):
        np.testing.assert_array_equal(sess.run(net.y, {net.x: x}), x + 1)
    np.testing.assert_array_equal(sess.run(net.y, {net.x: x.astype(np.float64)}), x + 1)
    np.testing.assert_array_equal(sess.run(net.y, {net.x: [[1, 2, 3]]}), x + 1)
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(1, 4\) for Tensor x:0"):
        sess.run(net.y, {net.x: np.zeros((1, 4), np.float32)})
    f = sess.make_callable(net.y, [net.x])
    np.testing.assert_array_equal(f(x), x + 1)
    np.testing.assert_array_equal(f(x.astype(np.float16)), x + 1)
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor x:0"):
        f(np.zeros(3, np.float32))


@pytest.mark.parametrize(
    "dtype",
    [tf.float16, tf.bfloat16, tf.float32, tf.int8, tf.int16, tf.int32, tf.uint8, tf.uint16, tf.bool, tf.complex64],
    ids=lambda d: d.name,
)
def test_feed_and_fetch_every_dtype(dtype: tf.DType) -> None:
    # As TF1's testFeedAndFetch: the fetched value is the fed one, in the tensor's dtype.
    with tf.Graph().as_default() as g:
        p = tf.placeholder(dtype, [2, 2], name="p")
        q = tf.identity(p)
    value = np.array([[1, 0], [0, 1]]).astype(dtype.as_numpy_dtype)
    with tf.Session(graph=g) as s:
        fed, ident = s.run([p, q], {p: value})
        for out in (fed, ident):
            assert out.dtype == dtype.as_numpy_dtype
            np.testing.assert_array_equal(np.asarray(out), value)
        assert q.dtype == dtype


def test_feed_jax_array_passes_through_and_is_not_owned(net: Net, sess: tf.Session) -> None:
    a = jnp.asarray(X)
    out = sess.run([net.x, net.y], {net.x: a})
    np.testing.assert_array_equal(out[0], X)
    np.testing.assert_array_equal(out[1], X + 1)
    assert not sess.owns(a)
    i = jnp.arange(6, dtype=jnp.int32).reshape(2, 3)  # converted to float32
    out = sess.run(net.y, {net.x: i})
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, X + 1)
    sess.close()
    assert not a.is_deleted() and not i.is_deleted()
    np.testing.assert_array_equal(np.asarray(a), X)


def test_fetching_a_fed_tensor_returns_the_fed_value(net: Net, sess: tf.Session) -> None:
    out = sess.run(net.x, {net.x: X})
    np.testing.assert_array_equal(out, X)
    v = np.full((2, 3), 7.0, np.float32)
    y, z = sess.run([net.y, net.z], {net.x: X, net.y: v})
    np.testing.assert_array_equal(y, v)
    np.testing.assert_array_equal(z, 2 * v)


def test_feed_intermediate_tensor_overrides_it(net: Net, sess: tf.Session) -> None:
    # x is not needed once y is fed: no missing-feed error.
    v = np.ones((4, 3), np.float32)
    np.testing.assert_array_equal(sess.run(net.z, {net.y: v}), 2 * v)
    with net.graph.as_default():
        c2 = net.c * 2.0
    np.testing.assert_array_equal(sess.run(c2, {net.c: [5.0, 6.0, 7.0]}), [10.0, 12.0, 14.0])
    with pytest.raises(errors.InvalidArgumentError):
        sess.run(net.z)


def test_feed_shape_compatibility(net: Net, sess: tf.Session) -> None:
    for rows in (0, 1, 5):
        out = sess.run(net.y, {net.x: np.zeros((rows, 3))})
        assert out.shape == (rows, 3)
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor x:0"):
        sess.run(net.y, {net.x: np.zeros(3)})
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2, 4\)"):
        sess.run(net.y, {net.x: np.zeros((2, 4))})


def test_feed_shape_mismatch_message() -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [3], name="x")
        y = x + 1.0
    with tf.Session(graph=g) as s:
        with pytest.raises(ValueError) as info:
            s.run(y, {x: np.zeros(4)})
        assert str(info.value) == "Cannot feed value of shape (4,) for Tensor x:0, which has shape (3,)"


def test_unknown_rank_placeholder_takes_any_shape() -> None:
    with tf.Graph().as_default() as g:
        u = tf.placeholder(tf.float32, name="u")
        v = u * 2.0
    with tf.Session(graph=g) as s:
        assert float(s.run(v, {u: 3.0})) == 6.0
        np.testing.assert_array_equal(s.run(v, {u: np.ones((2, 2, 2))}), 2 * np.ones((2, 2, 2)))


def test_feed_none_and_empty_feed_dict(net: Net, sess: tf.Session) -> None:
    np.testing.assert_array_equal(sess.run(net.c, None), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(sess.run(net.c, {}), [1.0, 2.0, 3.0])


def test_feed_dict_key_errors(net: Net, sess: tf.Session) -> None:
    with pytest.raises(TypeError, match="Cannot interpret feed_dict key"):
        sess.run(net.y, {"x": X})  # an op name, not a tensor name
    with pytest.raises(TypeError, match="Cannot interpret feed_dict key"):
        sess.run(net.y, {"nope:0": X})
    with pytest.raises(TypeError, match="Cannot interpret feed_dict key"):
        sess.run(net.y, {3: X})


def test_tensor_as_feed_value_is_a_type_error(net: Net, sess: tf.Session) -> None:
    with pytest.raises(TypeError, match="cannot be a tf.Tensor"):
        sess.run(net.z, {net.y: net.c})


# -- errors ----------------------------------------------------------------------


def test_missing_feed_message(net: Net, sess: tf.Session) -> None:
    with pytest.raises(errors.InvalidArgumentError) as info:
        sess.run(net.y)
    e = info.value
    assert str(e) == "You must feed a value for placeholder tensor 'x' with dtype float32 and shape [?,3]"
    assert e.message == str(e)
    assert e.error_code == errors.INVALID_ARGUMENT
    assert isinstance(e, errors.OpError)
    assert e.op is net.x.op


def test_missing_feed_unknown_rank_message() -> None:
    with tf.Graph().as_default() as g:
        u = tf.placeholder(tf.int32, name="u")
        v = u + 1
    with tf.Session(graph=g) as s, pytest.raises(errors.InvalidArgumentError) as info:
        s.run(v)
    assert str(info.value) == "You must feed a value for placeholder tensor 'u' with dtype int32"


def test_failed_run_leaves_no_plan_and_session_usable(net: Net, sess: tf.Session) -> None:
    with pytest.raises(errors.InvalidArgumentError):
        sess.run(net.z)
    assert len(sess._plans) == 0
    np.testing.assert_array_equal(sess.run(net.y, {net.x: X}), X + 1)


def test_none_fetch_is_a_type_error(net: Net, sess: tf.Session) -> None:
    with pytest.raises(TypeError):
        sess.run(None)
    with pytest.raises(TypeError):
        sess.run([net.y, None], {net.x: X})
    with pytest.raises(TypeError):
        sess.run({"a": None})


def test_invalid_fetch_type(net: Net, sess: tf.Session) -> None:
    with pytest.raises(TypeError, match="invalid type"):
        sess.run(12)
    with pytest.raises(TypeError):
        sess.run([net.y, object()], {net.x: X})


def test_fetch_name_not_in_graph_is_a_value_error(net: Net, sess: tf.Session) -> None:
    # TF1 turns the graph's KeyError into ValueError("Fetch argument ... cannot be interpreted ...").
    with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
        sess.run("nope:0")
    with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
        sess.run(["nope"])
    with pytest.raises(ValueError):
        sess.run("x:3")


def test_element_of_another_graph_is_a_value_error(net: Net, sess: tf.Session) -> None:
    with tf.Graph().as_default():
        foreign = tf.constant(1.0)
        fp = tf.placeholder(tf.float32, [])
    with pytest.raises(ValueError):
        sess.run(foreign)
    with pytest.raises(ValueError):
        sess.run([net.c, foreign])
    with pytest.raises(ValueError):
        sess.run(foreign.op)
    with pytest.raises(TypeError, match="not an element of this graph"):  # as TF1: a feed key
        sess.run(net.c, {fp: 1.0})
    with pytest.raises(ValueError):
        foreign.eval(session=sess)
    with pytest.raises(ValueError):
        sess.make_callable(foreign)
    with pytest.raises(TypeError, match="not an element of this graph"):
        sess.make_callable(net.y, [fp])


def test_closed_session_raises(net: Net) -> None:
    s = tf.Session(graph=net.graph)
    f = s.make_callable(net.y, [net.x])
    s.close()
    assert s.closed
    s.close()  # idempotent
    for call in (
        lambda: s.run(net.c),
        lambda: s.run([]),
        lambda: f(X),
        lambda: s.make_callable(net.c),
        lambda: net.c.eval(session=s),
    ):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == CLOSED
    with pytest.raises(RuntimeError, match=CLOSED), s:
        pass


def test_session_constructor_errors(net: Net) -> None:
    with pytest.raises(TypeError):
        tf.Session(graph="not a graph")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tf.Session("grpc://localhost:2222", graph=net.graph)


def test_run_options_and_metadata_accepted(net: Net, sess: tf.Session) -> None:
    out = sess.run(net.c, options=None, run_metadata=None)
    np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])


# -- graph binding and defaults -------------------------------------------------------


def test_session_uses_default_graph_at_creation() -> None:
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(5.0)
        s = tf.Session()
    try:
        assert s.graph is g
        assert float(s.run(c)) == 5.0
    finally:
        s.close()


def test_with_session_enters_graph_and_session_defaults(net: Net) -> None:
    outer_graph = tf.get_default_graph()
    assert tf.get_default_session() is None
    with tf.Session(graph=net.graph) as s:
        assert tf.get_default_session() is s
        assert tf.get_default_graph() is net.graph
        d = tf.constant(2.0)  # goes to the session's graph
        assert d.graph is net.graph
        assert float(d.eval()) == 2.0
        np.testing.assert_array_equal(net.y.eval({net.x: X}), X + 1)
        assert net.op.run({net.x: X}) is None
    assert s.closed
    assert tf.get_default_session() is None
    assert tf.get_default_graph() is outer_graph


def test_with_session_closes_when_the_block_raises(net: Net) -> None:
    with pytest.raises(KeyError), tf.Session(graph=net.graph) as s:
        raise KeyError("boom")
    assert s.closed
    assert tf.get_default_session() is None


def test_session_context_is_not_reentrant(net: Net) -> None:
    with tf.Session(graph=net.graph) as s:
        with pytest.raises(RuntimeError, match="not re-entrant"), s:
            pass
        assert not s.closed
        assert tf.get_default_session() is s
        with s.as_default():  # the re-entrant way
            np.testing.assert_array_equal(net.c.eval(), [1.0, 2.0, 3.0])
    assert s.closed
    assert tf.get_default_session() is None


def test_as_default_does_not_close(net: Net, sess: tf.Session) -> None:
    with sess.as_default() as d:
        assert d is sess
        assert tf.get_default_session() is sess
        np.testing.assert_array_equal(net.c.eval(), [1.0, 2.0, 3.0])
    assert tf.get_default_session() is None
    assert not sess.closed
    np.testing.assert_array_equal(sess.run(net.c), [1.0, 2.0, 3.0])


def test_as_default_nests(net: Net) -> None:
    s1 = tf.Session(graph=net.graph)
    s2 = tf.Session(graph=net.graph)
    try:
        with s1.as_default():
            with s2.as_default():
                assert tf.get_default_session() is s2
            assert tf.get_default_session() is s1
    finally:
        s1.close()
        s2.close()


def test_default_session_is_thread_local(net: Net, sess: tf.Session) -> None:
    seen: list[Any] = []
    errs: list[BaseException] = []

    def other() -> None:
        seen.append(tf.get_default_session())
        try:
            net.c.eval()
        except ValueError as e:
            errs.append(e)

    with sess.as_default():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == [None]
    assert len(errs) == 1 and "No default session" in str(errs[0])


def test_no_default_session_errors(net: Net) -> None:
    assert tf.get_default_session() is None
    with pytest.raises(ValueError, match="No default session is registered"):
        net.c.eval()
    with pytest.raises(ValueError, match="No default session is registered"):
        net.op.run()


def test_eval_with_session_of_another_graph(net: Net) -> None:
    with tf.Session(graph=tf.Graph()) as other, pytest.raises(ValueError, match="graph"):
        net.c.eval(session=other)


def test_sessions_sharing_a_graph(net: Net) -> None:
    s1 = tf.Session(graph=net.graph, device_fetches=True)
    s2 = tf.Session(graph=net.graph, device_fetches=True)
    try:
        a = s1.run(net.y, {net.x: X})
        b = s2.run(net.y, {net.x: X})
        np.testing.assert_array_equal(a, b)
        assert s1.owns(a) and not s1.owns(b)
        assert s2.owns(b) and not s2.owns(a)
        s1.close()
        assert a.is_deleted() and not b.is_deleted()
        np.testing.assert_array_equal(s2.run(net.y, {net.x: X}), X + 1)
    finally:
        s1.close()
        s2.close()


def test_graph_grows_after_session_creation(net: Net, sess: tf.Session) -> None:
    np.testing.assert_array_equal(sess.run(net.y, {net.x: X}), X + 1)
    with net.graph.as_default():
        w = net.y - 1.0
    np.testing.assert_array_equal(sess.run(w, {net.x: X}), X)


# -- lifecycle and ownership ----------------------------------------------------------


def test_results_are_owned_and_deleted_at_close(net: Net, strategy: ResourceCleanupStrategy) -> None:
    s = tf.Session(graph=net.graph, cleanup=strategy, device_fetches=True)
    out = s.run({"y": net.y, "z": net.z}, {net.x: X})
    assert s.strategy is strategy
    assert s.owns(out["y"]) and s.owns(out["z"])
    np.testing.assert_array_equal(out["y"], X + 1)
    s.close()
    assert out["y"].is_deleted() and out["z"].is_deleted()
    with pytest.raises(RuntimeError, match="deleted"):
        np.asarray(out["y"])


def test_unreferenced_results_freed_by_strategy(net: Net, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=net.graph, cleanup=strategy, device_fetches=True) as s:
        kept = s.run(net.y, {net.x: X})
        for i in range(20):
            s.run(net.z, {net.x: X + i})
        if strategy is ResourceCleanupStrategy.ON_SESSION_CLOSE:
            st = s.stats()
            assert st.live_buffers == 21 and st.freed_buffers == 0
        elif strategy is ResourceCleanupStrategy.ON_SAFE_POINTS:
            s.run(net.c)  # a safe point
            st = s.stats()
            assert st.freed_buffers >= 20
            assert st.live_buffers <= 2
        else:
            assert wait_for(lambda: s.stats().freed_buffers >= 20)
        assert not kept.is_deleted()
        np.testing.assert_array_equal(kept, X + 1)
    assert kept.is_deleted()


def test_referenced_results_survive_sweeps(net: Net, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=net.graph, cleanup=strategy, device_fetches=True) as s:
        keep = [s.run(net.y, {net.x: X + i}) for i in range(30)]
        s.sweep()
        time.sleep(0.01)
        for i, v in enumerate(keep):
            assert not v.is_deleted()
            np.testing.assert_array_equal(v, X + i + 1)


def test_constant_results_are_fresh_buffers(net: Net, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=net.graph, cleanup=strategy, device_fetches=True) as s:
        a = s.run(net.c)
        b = s.run(net.c)
        assert s.owns(a) and s.owns(b)
        del a
        s.sweep()
        np.testing.assert_array_equal(b, [1.0, 2.0, 3.0])
        np.testing.assert_array_equal(s.run(net.c), [1.0, 2.0, 3.0])


def test_closed_session_drops_plans(net: Net) -> None:
    s = tf.Session(graph=net.graph)
    s.run(net.y, {net.x: X})
    assert len(s._plans) == 1
    s.close()
    assert len(s._plans) == 0


def test_unclosed_session_warns_and_releases(net: Net) -> None:
    s = tf.Session(graph=net.graph, cleanup=ResourceCleanupStrategy.ON_SESSION_CLOSE, device_fetches=True)
    out = s.run(net.y, {net.x: X})
    ref = weakref.ref(s)
    with pytest.warns(ResourceWarning, match="without close"):
        del s
        gc.collect()
    assert ref() is None
    assert out.is_deleted()


def test_plan_cache_makes_no_reference_cycle(net: Net) -> None:
    # An unclosed session is released as soon as its last reference goes (no gc
    # needed), whatever plans it cached (default-device and placed ones).

    with net.graph.as_default(), tf.device("/cpu:1"):
        placed = net.y * 3.0
    s = tf.Session(graph=net.graph, cleanup=ResourceCleanupStrategy.ON_SESSION_CLOSE, device_fetches=True)
    out = s.run([net.y, placed], {net.x: X})
    f = s.make_callable(net.z, [net.x])
    f(X)
    del f
    gc.disable()
    try:
        with pytest.warns(ResourceWarning, match="without close"):
            del s
        assert out[0].is_deleted() and out[1].is_deleted()
    finally:
        gc.enable()


# -- plan cache ----------------------------------------------------------------------


def test_same_signature_builds_one_plan(net: Net, sess: tf.Session) -> None:
    sess.run(net.y, {net.x: X})
    assert len(sess._plans) == 1
    sess.run(net.y, {net.x: X + 1})
    sess.run([net.y], {net.x: X})  # same (fetches, feeds): same plan
    sess.run({"k": net.y}, {"x:0": X})
    assert len(sess._plans) == 1
    sess.run(net.z, {net.x: X})
    sess.run(net.y, {net.x: X, net.c: [0.0, 0.0, 0.0]})
    sess.run([net.y, net.op], {net.x: X})
    # A feed_dict whose order is not by name reuses the name-sorted plan under a key of its own.
    assert len({entry[0] for entry in sess._plans.values()}) == 4


def test_cache_hit_never_walks_the_graph(net: Net, sess: tf.Session, monkeypatch: pytest.MonkeyPatch) -> None:
    fetches = {"y": net.y, "both": [net.z, net.op]}
    sess.run(fetches, {net.x: X})
    f = sess.make_callable(fetches, [net.x])
    assert len(sess._plans) == 1

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the graph was walked on a cache hit")

    monkeypatch.setattr(gs, "build_plan", boom)
    monkeypatch.setattr(tf.Operation, "inputs", property(boom))
    monkeypatch.setattr(tf.Operation, "control_inputs", property(boom))
    monkeypatch.setattr(tf.Graph, "get_operations", boom)
    for i in range(3):
        out = sess.run(fetches, {net.x: X + i})
        np.testing.assert_array_equal(out["y"], X + i + 1)
        assert out["both"][1] is None
        out = f(X + i)
        np.testing.assert_array_equal(out["both"][0], 2 * (X + i + 1))
    assert len(sess._plans) == 1


def test_plan_is_not_built_for_a_bad_feed(net: Net, sess: tf.Session) -> None:
    with pytest.raises(ValueError):
        sess.run(net.y, {net.x: np.zeros(3)})
    np.testing.assert_array_equal(sess.run(net.y, {net.x: X}), X + 1)


# -- interactive sessions -------------------------------------------------------------


def test_interactive_session_installs_itself(net: Net) -> None:
    s = tf.InteractiveSession(graph=net.graph, device_fetches=True)
    try:
        assert tf.get_default_session() is s
        assert tf.get_default_graph() is net.graph
        np.testing.assert_array_equal(net.y.eval({net.x: X}), X + 1)
        assert net.op.run({net.x: X}) is None
        r = s.run(net.c)
        assert s.owns(r)
    finally:
        s.close()
    assert tf.get_default_session() is None
    assert tf.get_default_graph() is not net.graph
    assert r.is_deleted()


def test_interactive_session_uses_default_graph() -> None:
    g = tf.Graph()
    with g.as_default():
        c = tf.constant([1.0, 2.0]) + tf.constant([2.0, 3.0])
        s = tf.InteractiveSession()
        try:
            assert s.graph is g
            np.testing.assert_array_equal(c.eval(), [3.0, 5.0])
        finally:
            s.close()


def test_second_interactive_session_warns(net: Net) -> None:
    s1 = tf.InteractiveSession(graph=net.graph)
    try:
        with pytest.warns(UserWarning, match="interactive session is already active"):
            s2 = tf.InteractiveSession(graph=net.graph)
        try:
            assert tf.get_default_session() is s2
        finally:
            s2.close()
        assert tf.get_default_session() is s1
    finally:
        s1.close()
    # No warning once the others are closed (warnings are errors here).
    s3 = tf.InteractiveSession(graph=net.graph)
    s3.close()
    assert tf.get_default_session() is None


def test_interactive_session_close_is_idempotent(net: Net) -> None:
    s = tf.InteractiveSession(graph=net.graph)
    s.close()
    s.close()
    s2 = tf.InteractiveSession(graph=net.graph)  # must not warn
    s2.close()


def test_interactive_session_as_context_manager(net: Net) -> None:
    with tf.InteractiveSession(graph=net.graph) as s:
        assert tf.get_default_session() is s
    assert s.closed
    assert tf.get_default_session() is None


# -- callables ----------------------------------------------------------------------------


def test_make_callable_single_tensor(net: Net, sess: tf.Session) -> None:
    f = sess.make_callable(net.y, [net.x])
    for i in range(3):
        out = f(X + i)
        assert type(out) is np.ndarray and out.flags.writeable
        np.testing.assert_array_equal(out, X + i + 1)
        assert not sess.owns(out)
    assert type(sess.make_callable(tf.reduce_sum(net.y), [net.x])(X)) is np.float32


def test_make_callable_structures_and_names(net: Net, sess: tf.Session) -> None:
    f = sess.make_callable({"y": "y:0", "pair": (net.z, net.op)}, feed_list=["x:0"])
    out = f(X)
    np.testing.assert_array_equal(out["y"], X + 1)
    np.testing.assert_array_equal(out["pair"][0], 2 * (X + 1))
    assert out["pair"][1] is None
    g = sess.make_callable(net.op, [net.x])
    assert g(X) is None
    h = sess.make_callable([net.y, net.y], [net.x])
    a, b = h(X)
    assert a is b


def test_make_callable_without_feeds(net: Net, sess: tf.Session) -> None:
    f = sess.make_callable(net.c)
    np.testing.assert_array_equal(f(), [1.0, 2.0, 3.0])
    g = sess.make_callable([])
    assert g() == []


def test_make_callable_several_feeds_in_order(net: Net, sess: tf.Session) -> None:
    f = sess.make_callable(net.z, [net.y, net.x])  # y fed: x unused but allowed
    v = np.ones((1, 3), np.float32)
    np.testing.assert_array_equal(f(v, X), 2 * v)


def test_make_callable_errors(net: Net, sess: tf.Session) -> None:
    f = sess.make_callable(net.y, [net.x])
    with pytest.raises(TypeError):
        f()
    with pytest.raises(TypeError):
        f(X, X)
    with pytest.raises(ValueError, match="Cannot feed value of shape"):
        f(np.zeros(3))
    with pytest.raises(TypeError):
        f(net.c)
    with pytest.raises(errors.InvalidArgumentError, match="placeholder tensor 'x'"):
        sess.make_callable(net.y)
    with pytest.raises(TypeError):
        sess.make_callable(None)


def test_make_callable_shares_the_plan_with_run(net: Net, sess: tf.Session) -> None:
    sess.run(net.y, {net.x: X})
    f = sess.make_callable(net.y, [net.x])
    f(X)
    assert len(sess._plans) == 1


def test_make_callable_accepts_jax_arrays(net: Net, sess: tf.Session) -> None:
    f = sess.make_callable(net.x, [net.x])
    a = jnp.asarray(X)
    out = f(a)
    np.testing.assert_array_equal(out, X)
    sess.close()
    assert not a.is_deleted()


# -- parallel runs -------------------------------------------------------------------------


def _parallel(n_threads: int, body: Callable[[int], None]) -> None:
    errs: list[BaseException] = []
    start = threading.Barrier(n_threads)

    def worker(k: int) -> None:
        try:
            start.wait()
            body(k)
        except BaseException as e:  # noqa: B036 - reported below
            errs.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errs:
        raise errs[0]


def test_parallel_runs_on_one_session(net: Net, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=net.graph, cleanup=strategy) as s:

        def body(k: int) -> None:
            for i in range(200):
                v = np.full((1, 3), k * 1000 + i, np.float32)
                out = s.run({"y": net.y, "z": net.z}, {net.x: v})
                np.testing.assert_array_equal(out["y"], v + 1)
                np.testing.assert_array_equal(out["z"], 2 * (v + 1))

        _parallel(8, body)
        assert len(s._plans) == 1


def test_parallel_callables_on_one_session(net: Net, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=net.graph, cleanup=strategy) as s:
        f = s.make_callable([net.y, net.s], [net.x])

        def body(k: int) -> None:
            for i in range(200):
                v = np.full((2, 3), k - i, np.float32)
                y, total = f(v)
                np.testing.assert_array_equal(y, v + 1)
                assert float(total) == pytest.approx(float((2 * (v + 1)).sum()))

        _parallel(8, body)


def test_parallel_first_runs_build_consistent_plans(net: Net) -> None:
    with tf.Session(graph=net.graph) as s:
        fetches = [net.y, net.z, net.s, net.c]

        def body(k: int) -> None:
            for i in range(20):
                t = fetches[(k + i) % len(fetches)]
                v = np.full((1, 3), float(k), np.float32)
                out = s.run(t, {net.x: v})
                if t is net.y:
                    np.testing.assert_array_equal(out, v + 1)
                elif t is net.z:
                    np.testing.assert_array_equal(out, 2 * (v + 1))
                elif t is net.s:
                    assert float(out) == pytest.approx(float((2 * (v + 1)).sum()))
                else:
                    np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])

        _parallel(8, body)
        assert len(s._plans) == 4


def test_use_after_close_concurrent(net: Net) -> None:
    s = tf.Session(graph=net.graph)
    s.run(net.y, {net.x: X})
    outcome: list[BaseException] = []
    running = threading.Event()

    def loop() -> None:
        try:
            while True:
                s.run(net.y, {net.x: X})
                running.set()
        except BaseException as e:  # noqa: B036 - checked below
            outcome.append(e)

    t = threading.Thread(target=loop)
    t.start()
    assert running.wait(5.0)
    s.close()
    t.join(10.0)
    assert not t.is_alive()
    assert len(outcome) == 1
    assert isinstance(outcome[0], RuntimeError)
    assert str(outcome[0]) == CLOSED


def test_host_fetches_free_device_intermediates_at_once(strategy: ResourceCleanupStrategy) -> None:
    # Host mode: a run's device outputs are copied out and released in the run,
    # so neither the session nor JAX holds more buffers after 20 runs than after 1.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3])
        v = tf.Variable(np.ones(3, np.float32))
        step = tf.assign_add(v, x)
        out = tf.reduce_sum(v * x)
    with tf.Session(graph=g, cleanup=strategy) as s:
        s.run(v.initializer)
        s.run([step, out], {x: np.ones(3, np.float32)})
        live, owned = len(jax.live_arrays()), s.stats().live_buffers
        kept = [s.run([step, out, v], {x: np.full(3, i, np.float32)}) for i in range(20)]
        assert len(jax.live_arrays()) == live and s.stats().live_buffers == owned
        final = s.run(v)
    np.testing.assert_array_equal(final, np.full(3, 1 + 1 + sum(range(20)), np.float32))
    assert all(type(k[1]) is np.float32 and type(k[2]) is np.ndarray for k in kept)  # still the caller's


def _hot_paths(s: tf.Session, path: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``(run, make_callable)`` of ``s`` through the C hot path (``jaxsess._core.runtime._hot``,
    the default when built) or through the Python methods it wraps."""
    if path == "c":
        return s.run, s.make_callable
    run = functools.partial(getattr(tf.Session.run, "__wrapped__", tf.Session.run), s)

    def make_callable(*args: Any, **kwargs: Any) -> Any:
        f = s.make_callable(*args, **kwargs)
        return getattr(f, "__wrapped__", f)

    return run, make_callable


def test_c_hot_path_is_built() -> None:
    """The C extension is built by the install (setup.py) and used, unless
    JAXSESS_C_HOT_PATH=0; with it off, run and callables are plain Python."""
    if os.environ.get("JAXSESS_C_HOT_PATH", "1") != "0":
        assert gs._c_hot is not None, "jaxsess._core.runtime._hot is not built: pip install -e . needs a C compiler"
        assert type(tf.Session.run).__name__ == "HotRun" and tf.Session.run.__wrapped__.__name__ == "run"
    code = (
        "import jaxsess as tf, numpy as np\n"
        "g = tf.Graph()\n"
        "with g.as_default():\n"
        "    x = tf.placeholder(tf.float32, [2]); y = x + 1.0\n"
        "s = tf.Session(graph=g)\n"
        "f = s.make_callable(y, [x]); f(np.zeros(2, np.float32))\n"
        "print(type(tf.Session.run).__name__, type(f).__name__, s.run(y, {x: np.ones(2, np.float32)}).tolist())\n"
    )
    env = {**os.environ, "JAXSESS_C_HOT_PATH": "0", "JAX_PLATFORMS": "cpu"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["function", "function", "[2.0,", "2.0]"]


def test_c_hot_path_method_protocol() -> None:
    """Session.run stays a method: bound per instance, inherited by
    InteractiveSession, inspectable (signature, docstring), keyword calls."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        y = x * 3.0
    with tf.Session(graph=g) as s:
        assert s.run.__self__ is s and "as ``tf.compat.v1.Session.run``" in (tf.Session.run.__doc__ or "")
        assert list(inspect.signature(s.run).parameters) == ["fetches", "feed_dict", "options", "run_metadata"]
        assert s.run(fetches=y, feed_dict={x: 2.0}) == 6.0
        assert s.run(y, {x: np.float32(1.0)}, None, None) == 3.0
        one = s.run(y, {x: np.array(2.0, np.float32)})
        assert type(one) is np.float32 and one == 6.0  # 0-d: a NumPy scalar, on both paths
    with g.as_default():
        isess = tf.InteractiveSession()
        try:
            assert isess.run(y, {x: np.array(1.0, np.float32)}) == 3.0
        finally:
            isess.close()


@pytest.mark.skipif(gs._c_hot is None, reason="the C hot path is off (JAXSESS_C_HOT_PATH=0)")
def test_c_hot_callable_errors_and_adoption() -> None:
    """The C callable's call of the jitted function: its errors go through
    the session's translation (device out-of-memory -> ResourceExhaustedError,
    others as raised, KeyboardInterrupt untouched); a device result is
    adopted unless it is a feed handed back; other calls take the Python
    callable it wraps."""
    assert gs._c_hot is not None
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x * 2.0
    x2 = np.ones(2, np.float32)
    spec = ((np.dtype(np.float32), (2,)),)
    slow_calls: list[tuple[Any, ...]] = []

    def slow(*args: Any, **kwargs: Any) -> str:
        slow_calls.append((*args, *kwargs.values()))
        return "python"

    base: list[Any] = []  # y's cache entry (the cache is emptied at close)

    def runner(fn: Callable[..., Any], device: bool, **fields: Any) -> Any:
        """A C callable of y's cache entry, its jitted function replaced by fn."""
        entry = base[0]._replace(direct_one=fn, by_buffer=False, **fields)
        return gs._c_hot.HotRunner(slow, sess, sess._registry, entry, 1, device, None)

    def hot(fn: Callable[..., Any], device: bool = False) -> Any:
        return runner(fn, device, fit_spec=spec, fits=lambda v: False)

    def raising(err: BaseException) -> Callable[..., Any]:
        def fn(*args: Any) -> Any:
            raise err

        return fn

    with tf.Session(graph=g, device_fetches=True, cleanup="ON_SESSION_CLOSE") as sess:
        sess.make_callable(y, [x])
        base.append(sess._plans[((y,), (x,))])
        with pytest.raises(errors.ResourceExhaustedError, match="Device out of memory: RESOURCE_EXHAUSTED: boom"):
            hot(raising(RuntimeError("RESOURCE_EXHAUSTED: boom")))(x2)
        with pytest.raises(RuntimeError, match="^plain$"):
            hot(raising(RuntimeError("plain")))(x2)
        with pytest.raises(KeyboardInterrupt):
            hot(raising(KeyboardInterrupt()))(x2)
        # a feed that does not fit is converted (feed_values, as the Python runner does) and run
        converted = hot(lambda v: v)(x2.astype(np.float64))
        assert type(converted) is np.ndarray and converted.dtype == np.float32
        # the arity error and keyword arguments: the Python callable runs, with the arguments as given
        assert hot(lambda v: v)(x2, x2) == "python"
        assert hot(lambda v: v)(v=x2) == "python"
        assert len(slow_calls) == 2
        fresh = jnp.zeros(2)
        out = hot(lambda v: fresh, device=True)(x2)
        assert out is fresh and sess.owns(fresh)
        mine = jnp.ones(2)
        spec_any = runner(lambda v: v, True, fit_spec=None, fits=lambda v: True)
        assert spec_any(mine) is mine and not sess.owns(mine)  # a feed handed back stays the caller's
        assert hot(lambda v: np.float32(1.5))(x2) == np.float32(1.5)
    assert fresh.is_deleted() and not mine.is_deleted()
    assert hot(lambda v: v)(x2) == "python"  # closed: the Python callable raises the closed-session error


@pytest.mark.parametrize("path", ["c", "python"])
@pytest.mark.parametrize("device_fetches", [False, True])
def test_hot_path_results_and_feed_errors(device_fetches: bool, path: str) -> None:
    """A cache hit of a stateless plan (run's and make_callable's hot path,
    in C and in Python): NumPy feeds that fit give the value (a device
    result is the session's, deleted at close); a fed array of another
    shape raises the plan's ValueError; a jax.Array feed is never adopted;
    a list is converted."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        y = x * 2.0
        z = tf.identity(x)
    x3 = np.array([1.0, 2.0, 3.0], np.float32)
    sess = tf.Session(graph=g, device_fetches=device_fetches, cleanup="ON_SESSION_CLOSE")
    run, make_callable = _hot_paths(sess, path)
    s = collections.namedtuple("S", "run owns close")(run, sess.owns, sess.close)
    call, ident = make_callable(y, [x]), make_callable(z, [x])
    s.run(y, {x: x3})
    s.run(z, {x: x3})  # compiled: the next calls take the hot path
    outs = [s.run(y, {x: x3}), call(x3), s.run(y, {x: [1, 2, 3]}), call([1, 2, 3])]
    for out in outs:
        np.testing.assert_array_equal(out, 2 * x3)
        assert type(out) is (np.ndarray if not device_fetches else type(jnp.zeros(1)))
        assert s.owns(out) is device_fetches
    for bad in (np.zeros(4, np.float32), np.zeros((1, 3), np.float32)):
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(.*\) for Tensor x:0, which has shape \(3,\)"):
            s.run(y, {x: bad})
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(.*\) for Tensor x:0, which has shape \(3,\)"):
            call(bad)
    with pytest.raises(TypeError, match=r"Callable takes 1 feed value\(s\) \(\['x:0'\]\), got 2"):
        call(x3, x3)
    mine = jnp.asarray(x3)  # the caller's array fed back: never the session's, also when returned as is
    for out in (s.run(z, {x: mine}), ident(mine)):
        np.testing.assert_array_equal(out, x3)
        assert not (device_fetches and s.owns(mine))
    s.close()
    assert not mine.is_deleted()
    if device_fetches:
        assert all(out.is_deleted() for out in outs)
    else:  # host values: the caller's, valid after close
        assert all(out.flags.writeable and out.flags.owndata for out in outs)
        np.testing.assert_array_equal(outs[0], 2 * x3)


def _adam_mlp() -> tuple[tf.Graph, dict[str, Any]]:
    """A small TF1 training program: MLP 8-16-3, dropout, Adam."""
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 8], name="x")
        y = tf.placeholder(tf.int32, [None], name="y")
        h = tf.nn.dropout(tf.layers.dense(x, 16, activation=tf.nn.relu), keep_prob=0.75)
        logits = tf.layers.dense(h, 3)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
        init = tf.global_variables_initializer()
        weights = tf.trainable_variables()
    return g, {"x": x, "y": y, "loss": loss, "train_op": train_op, "init": init, "weights": weights}


def _counting(fn: Callable[..., Any], calls: list[int]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return fn(*args, **kwargs)

    return counted


def _batches(n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((5, 8)).astype(np.float32), rng.integers(0, 3, 5).astype(np.int32)) for _ in range(n)]


@pytest.mark.skipif(gs._c_hot is None, reason="the C hot path is off (JAXSESS_C_HOT_PATH=0)")
@pytest.mark.parametrize("device_fetches", [False, True])
def test_training_steps_in_c_match_python(device_fetches: bool) -> None:
    """A stateful plan's cache hits — ``run(train_op)``, ``run([train_op,
    loss])`` and their callables — run in C (no call of the Python ``Session._call``)
    and train exactly as the Python path: the same losses, weights and
    registry counters; fetched values are host values, or with device
    fetches the session's arrays; the random op's counter (created by the
    first step, which the C path leaves to Python) advances the same. A
    graph of host ops elsewhere in the process (it needs the host pass) does
    not send this graph's runs to Python."""
    strings = tf.Graph()
    with strings.as_default():
        joined = tf.strings.join([tf.constant("a"), tf.constant("b")])
    assert strings in HOST_GRAPHS
    seen = {}
    for path in ("c", "python"):
        g, m = _adam_mlp()
        sess = tf.Session(graph=g, device_fetches=device_fetches, cleanup="ON_SESSION_CLOSE")
        run, make_callable = _hot_paths(sess, path)
        run(m["init"])
        step = make_callable(m["train_op"], [m["x"], m["y"]])
        step_loss = make_callable([m["train_op"], m["loss"]], [m["x"], m["y"]])
        python_runs: list[int] = []  # the Python Session._call of the stateful plans
        sess._call = _counting(sess._call, python_runs)  # type: ignore[method-assign]
        losses = []
        for i, (xb, yb) in enumerate(_batches(16)):
            feed = {m["x"]: xb, m["y"]: yb}
            if i % 4 == 0:
                assert run(m["train_op"], feed) is None
            elif i % 4 == 1:
                none, loss = run([m["train_op"], m["loss"]], feed)
                assert none is None
                losses.append(loss)
            elif i % 4 == 2:
                assert step(xb, yb) is None
            else:
                none, loss = step_loss(xb, yb)
                assert none is None
                losses.append(loss)
        for loss in losses:
            if device_fetches:
                assert isinstance(loss, jax.Array) and sess.owns(loss)
            else:
                assert type(loss) is np.float32
        del sess._call
        weights = [np.array(v) for v in sess.run(m["weights"])]
        stats = sess.stats()
        seen[path] = ([float(v) for v in losses], weights, (stats.allocated_buffers, stats.freed_buffers,
                      stats.live_buffers, stats.live_bytes, stats.peak_bytes), len(python_runs))
        if path == "c":
            # only the first step ran in Python: it created the random op's counter
            assert type(step).__name__ == "HotRunner" and len(python_runs) == 1
        else:
            assert len(python_runs) == 16
        sess.close()
        if device_fetches:
            assert all(v.is_deleted() for v in losses)
    with tf.Session(graph=strings) as other:  # its runs take the host pass, on the C path's miss
        assert other.run(joined) == other.run(joined) == b"ab"
    assert seen["c"][0] == seen["python"][0]
    for a, b in zip(seen["c"][1], seen["python"][1], strict=True):
        np.testing.assert_array_equal(a, b)
    assert seen["c"][2] == seen["python"][2]


@pytest.mark.parametrize("path", ["c", "python"])
def test_training_step_errors_leave_the_state(path: str) -> None:
    """On both paths: an uninitialised variable raises TF1's error, a fed
    batch of another width the plan's ValueError, a closed session TF1's
    RuntimeError; none changes a variable. A feed committed to another
    device runs on the default one, as TF1 copies feeds."""
    g, m = _adam_mlp()
    (xb, yb), (xb2, yb2) = _batches(2)
    sess = tf.Session(graph=g)
    run, make_callable = _hot_paths(sess, path)
    step = make_callable([m["train_op"], m["loss"]], [m["x"], m["y"]])
    with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
        step(xb, yb)
    with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
        run(m["train_op"], {m["x"]: xb, m["y"]: yb})
    run(m["init"])
    step(xb, yb)
    run(m["train_op"], {m["x"]: xb, m["y"]: yb})
    before = sess.run(m["weights"])
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(5, 7\) for Tensor x:0"):
        step(xb[:, :7], yb)
    with pytest.raises(ValueError, match=r"Cannot feed value of shape \(5, 7\) for Tensor x:0"):
        run(m["train_op"], {m["x"]: xb[:, :7], m["y"]: yb})
    for a, b in zip(before, sess.run(m["weights"]), strict=True):
        np.testing.assert_array_equal(a, b)
    elsewhere = jax.device_put(jnp.asarray(xb2), jax.devices()[1])
    _, loss = step(elsewhere, yb2)
    _, loss2 = run([m["train_op"], m["loss"]], {m["x"]: elsewhere, m["y"]: yb2})
    assert np.isfinite(loss) and np.isfinite(loss2) and not elsewhere.is_deleted()
    sess.close()
    with pytest.raises(RuntimeError, match=CLOSED):
        step(xb, yb)
    with pytest.raises(RuntimeError, match=CLOSED):
        run(m["train_op"], {m["x"]: xb, m["y"]: yb})


@pytest.mark.parametrize("path", ["c", "python"])
def test_one_fetch_of_a_reused_plan_is_its_own_value(path: str) -> None:
    """A callable (or run) of one tensor that reuses the compiled plan of
    several fetches (``Session._reuse``) returns that tensor's value, not the
    plan's first fetch."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        a = x * 2.0
        b = x + 100.0
    x3 = np.ones(3, np.float32)
    for device_fetches in (False, True):
        with tf.Session(graph=g, device_fetches=device_fetches) as sess:
            run, make_callable = _hot_paths(sess, path)
            run([a, b], {x: x3})
            f = make_callable(b, [x])
            assert len(sess._plans) == 2 and len({e.plan for e in sess._plans.values()}) == 1  # reused
            for out in (f(x3), run(b, {x: x3}), make_callable([b], [x])(x3)[0], run([b], {x: x3})[0]):
                np.testing.assert_array_equal(np.asarray(out), x3 + 100.0)


@pytest.mark.parametrize("path", ["c", "python"])
def test_an_evicted_plan_is_not_rebuilt_from_a_permuted_entry(path: str) -> None:
    """A feed_dict in another order than the plan's gets an entry that
    permutes the feeds (``Session._lookup``). When the plan's own entry is
    evicted and its key run again, the entry made for it reuses the compiled
    plan without that permutation (it fed y's value to x: wrong values, or a
    shape error). Found by tests/test_hot_path.py."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = tf.placeholder(tf.float32, [3], name="y")
        v = tf.Variable(tf.zeros([3]), name="v")
        a = x * 2.0 + y
    x2, y3 = np.arange(6, dtype=np.float32).reshape(2, 3), np.array([10, 20, 30], np.float32)
    with tf.Session(graph=g, config=tf.ConfigProto(plan_cache_size=2)) as sess:
        run, _ = _hot_paths(sess, path)
        run(a, {x: x2[:1], y: y3})
        run(a, {y: y3, x: x2[:1]})  # the permuting entry
        run(v.initializer)  # evicts the plan's own entry
        for _ in range(2):
            np.testing.assert_array_equal(run(a, {x: x2, y: y3}), x2 * 2 + y3)
            np.testing.assert_array_equal(run(a, {y: y3, x: x2}), x2 * 2 + y3)


@pytest.mark.skipif(gs._c_hot is None, reason="the C hot path is off (JAXSESS_C_HOT_PATH=0)")
def test_c_feed_check_with_unknown_dimensions_is_the_python_predicate() -> None:
    """The C hot path takes a fed array as it is exactly when the entry's
    Python predicate (``feeds_fit``) does: a NumPy array of the dtype, the
    rank and every static dimension (a ``None`` dimension takes any size);
    any other value it converts with ``feed_values``, as ``_Entry.feed_values``
    does, which converts or raises as TF1."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3, None], name="x")
        y = tf.reduce_sum(x, axis=1)
    cases = [
        np.ones((2, 3, 4), np.float32),
        np.ones((5, 3, 1), np.float32),
        np.ones((0, 3, 2), np.float32),
        np.ones((2, 4, 4), np.float32),  # a static dimension differs
        np.ones((2, 3), np.float32),  # another rank
        np.ones((2, 3, 4, 1), np.float32),
        np.ones((2, 3, 4), np.float64),  # another dtype: converted
        [[[1.0, 2.0]] * 3],  # a list: converted
    ]
    conversions: list[int] = []

    class Feeds(tuple):  # type: ignore[type-arg]  # the entry's feeds, counting feed_values' walks over them
        def __iter__(self) -> Any:
            conversions.append(1)
            return super().__iter__()

    with tf.Session(graph=g) as sess:
        sess.run(y, {x: cases[0]})
        key = ((y,), (x,))
        entry = sess._plans[key]
        assert entry.fit_spec is not None  # the C path checks the feeds itself
        python_checks: list[int] = []  # the Python paths call the entry's predicate; the C path does not
        sess._plans[key] = entry._replace(fits=_counting(entry.fits, python_checks), feeds=Feeds(entry.feeds))
        sess._last_hit = None
        for v in cases:
            before = len(conversions)
            try:
                out = sess.run(y, {x: v})
                np.testing.assert_allclose(out, np.asarray(v, np.float32).sum(axis=1))
            except ValueError as e:
                assert "Cannot feed value of shape" in str(e) and "x:0" in str(e)
            converted = len(conversions) > before
            assert converted != entry.fits((v,)), (np.shape(v), converted)
        assert python_checks == [] and 0 < len(conversions) < len(cases)
