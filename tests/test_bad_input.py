"""Bad input (issue 7): every mistake raises the documented error class with
a message naming the culprit, and the sessions stay usable.

One table, :data:`CASES`: wrong feed dtypes and shapes, unknown names,
``None`` fetches, foreign-graph elements, non-feedable values, non-callables
given to ``jit``, malformed device strings, invalid strategies, corrupted
checkpoints, corrupted graph descriptions, detaching arrays the session does
not own, bad reshape sizes and axes, ... Each case runs against one graph
session and one eager session per strategy (shared by all cases, so that a
case that broke a session fails the cases after it too), and after each case
the test checks that nothing changed — variable values, owned buffers — and
that valid work still runs.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import EagerSession, ResourceCleanupStrategy, errors

STRATEGIES = list(ResourceCleanupStrategy)
X = np.arange(6, dtype=np.float32).reshape(2, 3)


class Env:
    """The graph, sessions and files every case works on."""

    def __init__(self, strategy: ResourceCleanupStrategy, tmp: str) -> None:
        self.strategy = strategy
        self.tmp = tmp
        self.graph = g = tf.Graph()
        with g.as_default():
            self.x = tf.placeholder(tf.float32, [None, 3], name="x")
            self.i = tf.placeholder(tf.int32, [2], name="i")
            self.y = tf.add(self.x, 1.0, name="y")
            self.j = tf.multiply(self.i, 2, name="j")
            self.v = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="v")
            self.w = tf.Variable(np.int32(7), name="w")
            self.inc = self.v.assign_add(np.ones((2, 3), np.float32), name="inc")
            self.uninit = tf.Variable(np.zeros(2, np.float32), name="uninit")
            self.c3 = tf.constant([1.0, 2.0, 3.0], name="c3")
            self.c12 = tf.constant([[1.0, 2.0]], name="c12")
            self.saver = tf.train.Saver([self.v, self.w])
        self.other = tf.Graph()
        with self.other.as_default():
            self.other_x = tf.placeholder(tf.float32, [None, 3], name="other_x")
            self.other_y = tf.identity(self.other_x, name="other_y")
        self.sess = tf.Session(graph=g, cleanup=strategy, name=f"bad-input-{strategy.name}")
        self.sess.run([self.v.initializer, self.w.initializer])
        self.eager = EagerSession(cleanup=strategy, name=f"bad-input-eager-{strategy.name}")
        self.eager2 = EagerSession(cleanup=strategy, name=f"bad-input-eager2-{strategy.name}")
        self.increments = 0
        self.checkpoints = self._write_checkpoints()

    # -- checkpoints ------------------------------------------------------------------

    def _write_checkpoints(self) -> dict[str, str]:
        """Prefixes of one good and several corrupted checkpoints."""
        d = self.tmp
        out = {"good": self.saver.save(self.sess, os.path.join(d, "good"))}
        # the damaged files below are older jaxsess .npz checkpoints (still read), made from this one
        buf = io.BytesIO()
        values = {v.op.name: np.asarray(self.sess.run(v)) for v in (self.v, self.w)}
        meta = json.dumps({"format": "jaxsess-npz", "version": 1, "dtypes": {k: a.dtype.name for k, a in values.items()}})
        np.savez(buf, **values, __jaxsess_meta__=np.array(meta))
        good = buf.getvalue()

        def raw(name: str, data: bytes) -> None:
            with open(os.path.join(d, name + ".npz"), "wb") as f:
                f.write(data)
            out[name] = os.path.join(d, name)

        raw("garbage", b"\x00\xffnot a checkpoint" * 20)
        raw("truncated", good[: len(good) // 2])
        raw("empty", b"")
        flipped = bytearray(good)
        flipped[len(flipped) // 3] ^= 0xFF
        raw("bad_crc", bytes(flipped))
        buf = io.BytesIO()
        np.savez(buf, v=np.zeros((2, 3), np.float32), w=np.int32(1))
        raw("no_meta", buf.getvalue())
        buf = io.BytesIO()
        np.save(buf, np.zeros(3, np.float32))
        raw("npy", buf.getvalue())
        buf = io.BytesIO()
        np.savez(buf, v=np.zeros((2, 3), np.float32), w=np.int32(1), __jaxsess_meta__=np.array("{not json"))
        raw("bad_meta", buf.getvalue())
        buf = io.BytesIO()
        np.savez(buf, v=np.array([None, 1], dtype=object))
        raw("pickled", buf.getvalue())
        # Well-formed checkpoints of other graphs: shape, dtype, missing variable.
        for name, v_value, with_w in (
            ("shape", np.zeros((3, 3), np.float32), True),
            ("dtype", np.zeros((2, 3), np.int32), True),
            ("missing", np.zeros((2, 3), np.float32), False),
        ):
            g = tf.Graph()
            with g.as_default():
                vs = [tf.Variable(v_value, name="v")]
                if with_w:
                    vs.append(tf.Variable(np.int32(0), name="w"))
                saver = tf.train.Saver(vs)
                with tf.Session(graph=g) as s:
                    s.run([v.initializer for v in vs])
                    out[name] = saver.save(s, os.path.join(d, name))
        return out

    # -- the checks ---------------------------------------------------------------------

    def snapshot(self) -> tuple[np.ndarray, int, int, int]:
        if self.strategy is not ResourceCleanupStrategy.ON_SESSION_CLOSE:
            self.sess.sweep()
            self.eager.sweep()
        v = np.array(self.sess.run(self.v))
        w = int(self.sess.run(self.w))
        if self.strategy is not ResourceCleanupStrategy.ON_SESSION_CLOSE:
            self.sess.sweep()
        return v, w, self.sess.stats().live_buffers, self.sess.stats().live_bytes

    def assert_unchanged(self, before: tuple[np.ndarray, int, int, int]) -> None:
        v, w, live, nbytes = before
        if self.strategy is not ResourceCleanupStrategy.ON_SESSION_CLOSE:
            self.sess.sweep()
        st = self.sess.stats()
        assert (st.live_buffers, st.live_bytes) == (live, nbytes), st
        assert not st.closed
        np.testing.assert_array_equal(np.asarray(self.sess.run(self.v)), v)
        assert int(self.sess.run(self.w)) == w

    def assert_usable(self) -> None:
        np.testing.assert_array_equal(np.asarray(self.sess.run(self.y, {self.x: X})), X + 1)
        np.testing.assert_array_equal(np.asarray(self.sess.run(self.j, {self.i: [1, 2]})), [2, 4])
        before = np.array(self.sess.run(self.v))
        self.sess.run(self.inc)
        np.testing.assert_array_equal(np.asarray(self.sess.run(self.v)), before + 1)
        with self.eager.as_default():
            r = tf.multiply(tf.constant([1.0, 2.0]), 3.0)
        assert self.eager.owns(r)
        np.testing.assert_array_equal(np.asarray(r), [3.0, 6.0])
        f = self.eager.jit(lambda a: a - 1.0)
        np.testing.assert_array_equal(np.asarray(f(jnp.ones(2))), [0.0, 0.0])
        assert not self.eager.closed and not self.eager2.closed

    def close(self) -> None:
        for s in (self.sess, self.eager, self.eager2):
            s.close()
            assert s.stats().live_buffers == 0


@pytest.fixture(scope="module", params=STRATEGIES, ids=[s.name for s in STRATEGIES])
def env(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    e = Env(request.param, str(tmp_path_factory.mktemp(f"bad-input-{request.param.name}")))
    try:
        yield e
    finally:
        e.close()


# -- the table ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """``call(env)`` must raise ``error`` whose message contains ``names``."""

    id: str
    call: Callable[[Env], Any]
    error: type[BaseException]
    names: str
    xfail: str | None = None


def _device_op(env: Env, spec: Any) -> Any:
    with tf.device(spec):
        return tf.add(env.x, 2.0)


def _run_on_missing_device(env: Env) -> Any:
    with tf.device("/device:GPU:7"):
        z = tf.add(env.x, 2.0, name="pinned_to_gpu7")
    return env.sess.run(z, {env.x: X})


def _eager(env: Env, fn: Callable[[], Any]) -> Any:
    with env.eager.as_default():
        return fn()


def _detach_tree(env: Env) -> Any:
    owned = env.eager.track(jnp.ones(2) + 1.0)
    try:
        return env.eager.detach({"a": owned, "b": jnp.ones(3)})
    finally:
        assert env.eager.owns(owned)  # all or nothing: 'a' was not detached


def _detach_others(env: Env) -> Any:
    theirs = env.eager2.track(jnp.ones(2) + 2.0)
    try:
        return env.eager.detach([theirs])
    finally:
        assert env.eager2.owns(theirs)


def _track_others(env: Env) -> Any:
    theirs = env.eager2.track(jnp.ones(2) + 3.0)
    return env.sess.track(theirs)


def _restore(name: str) -> Callable[[Env], Any]:
    def call(env: Env) -> Any:
        return env.saver.restore(env.sess, env.checkpoints.get(name, os.path.join(env.tmp, name)))

    return call


def _feed_twice(env: Env) -> Any:
    return env.sess.run(env.y, {env.x: X, "x:0": X})


def _callable(env: Env, *args: Any) -> Any:
    return env.sess.make_callable(env.y, [env.x])(*args)


CASES: list[Case] = [
    # -- feed values: dtypes and shapes
    Case("feed-string-for-float", lambda e: e.sess.run(e.y, {e.x: "abc"}), ValueError, "x:0"),
    Case("feed-dict-for-float", lambda e: e.sess.run(e.y, {e.x: {"a": 1}}), TypeError, "x:0"),
    Case("feed-ragged-list", lambda e: e.sess.run(e.y, {e.x: [[1, 2, 3], [1, 2]]}), ValueError, "x:0"),
    Case("feed-nan-for-int", lambda e: e.sess.run(e.j, {e.i: [float("nan"), 1]}), ValueError, "i:0"),
    Case("feed-wrong-rank", lambda e: e.sess.run(e.y, {e.x: np.zeros(3, np.float32)}), ValueError, "x:0"),
    Case("feed-wrong-dim", lambda e: e.sess.run(e.y, {e.x: np.zeros((2, 4), np.float32)}), ValueError, "(2, 4)"),
    Case("feed-scalar-for-vector", lambda e: e.sess.run(e.j, {e.i: 3}), ValueError, "i:0"),
    Case("feed-none-value", lambda e: e.sess.run(e.y, {e.x: None}), ValueError, "x:0"),
    Case("feed-jax-array-wrong-shape", lambda e: e.sess.run(e.y, {e.x: jnp.zeros((2, 2))}), ValueError, "x:0"),
    Case(
        "feed-int-overflow", lambda e: e.sess.run(e.j, {e.i: [2**40, 1]}), ValueError, "i:0",
    ),
    Case("feed-callable-make-wrong-shape", lambda e: _callable(e, np.zeros(3, np.float32)), ValueError, "x:0"),
    Case("feed-callable-arg-count", lambda e: _callable(e, X, X), TypeError, "x:0"),
    # -- feed keys and non-feedable values
    Case("feed-tensor-as-value", lambda e: e.sess.run(e.y, {e.x: e.y}), TypeError, "x:0"),
    Case("feed-operation-as-value", lambda e: e.sess.run(e.y, {e.x: e.inc.op}), TypeError, "x:0"),
    Case("feed-unknown-name", lambda e: e.sess.run(e.y, {"nope:0": X}), TypeError, "nope:0"),
    Case("feed-bad-output-index", lambda e: e.sess.run(e.y, {"x:7": X}), TypeError, "x:7"),
    Case("feed-operation-name-key", lambda e: e.sess.run(e.y, {"x": X}), TypeError, "'x'"),
    Case("feed-int-key", lambda e: e.sess.run(e.y, {3: X}), TypeError, "int"),
    Case("feed-foreign-graph-tensor", lambda e: e.sess.run(e.y, {e.other_x: X}), TypeError, "other_x"),
    Case("feed-same-tensor-twice", _feed_twice, ValueError, "x:0"),
    # -- fetches
    Case("fetch-none", lambda e: e.sess.run(None), TypeError, "None"),
    Case("fetch-none-in-list", lambda e: e.sess.run([e.y, None], {e.x: X}), TypeError, "None"),
    Case("fetch-none-in-dict", lambda e: e.sess.run({"a": None}), TypeError, "None"),
    Case("fetch-unknown-tensor-name", lambda e: e.sess.run("nope:0"), ValueError, "nope:0"),
    Case("fetch-unknown-op-name", lambda e: e.sess.run("nope"), ValueError, "nope"),
    Case("fetch-bad-output-index", lambda e: e.sess.run("y:3"), ValueError, "y:3"),
    Case("fetch-int", lambda e: e.sess.run(3), TypeError, "int"),
    Case("fetch-jax-array", lambda e: e.sess.run(jnp.ones(2)), TypeError, "Array"),
    Case("fetch-foreign-graph-tensor", lambda e: e.sess.run(e.other_y), ValueError, "other_y"),
    Case("fetch-foreign-graph-op", lambda e: e.sess.run(e.other_y.op), ValueError, "other_y"),
    Case("fetch-foreign-in-structure", lambda e: e.sess.run({"k": [e.y, e.other_y]}), ValueError, "other_y"),
    Case("fetch-missing-feed", lambda e: e.sess.run(e.y), errors.InvalidArgumentError, "placeholder tensor 'x'"),
    Case("fetch-uninitialized-variable", lambda e: e.sess.run(e.uninit), errors.FailedPreconditionError, "uninit"),
    Case("make-callable-none", lambda e: e.sess.make_callable(None), TypeError, "None"),
    Case("make-callable-unknown-feed", lambda e: e.sess.make_callable(e.y, ["nope:0"]), TypeError, "nope:0"),
    Case("eval-without-default-session", lambda e: e.y.eval({e.x: X}), ValueError, "No default session"),
    Case("eval-in-session-of-other-graph", lambda e: e.other_y.eval({e.other_x: X}, session=e.sess), ValueError, "graph"),
    # -- device strings
    Case("device-gpu-x", lambda e: _device_op(e, "/gpu:x"), ValueError, "'/gpu:x'"),
    Case("device-foo", lambda e: _device_op(e, "/foo:0"), ValueError, "'/foo:0'"),
    Case("device-unknown-type", lambda e: _device_op(e, "/device:XPU:0"), ValueError, "XPU"),
    Case("device-task-not-int", lambda e: _device_op(e, "/job:localhost/task:abc"), ValueError, "abc"),
    Case("device-function-not-a-string", lambda e: _device_op(e, lambda op: 3), TypeError, "got 3"),
    Case("device-does-not-exist", _run_on_missing_device, errors.InvalidArgumentError, "GPU:7"),
    # -- shapes, axes and attributes while building ops
    Case("reshape-bad-size", lambda e: tf.reshape(e.c3, [2, 2]), ValueError, "[2,2]"),
    Case("reshape-two-unknown", lambda e: tf.reshape(e.c3, [-1, -1]), ValueError, "[-1,-1]"),
    Case("reduce-axis-out-of-range", lambda e: tf.reduce_sum(e.c12, axis=5), ValueError, "axis 5"),
    Case("concat-axis-out-of-range", lambda e: tf.concat([e.c3, e.c3], axis=3), ValueError, "axis 3"),
    Case("expand-dims-axis-out-of-range", lambda e: tf.expand_dims(e.c3, axis=5), ValueError, "axis 5"),
    Case(
        "argmax-axis-out-of-range", lambda e: tf.argmax(e.c12, axis=2), ValueError, "axis 2",
    ),
    Case(
        "gather-axis-out-of-range", lambda e: tf.gather(e.c3, [0], axis=3), ValueError, "axis 3",
    ),
    Case("transpose-bad-perm", lambda e: tf.transpose(e.c12, perm=[0, 2]), ValueError, "[0, 2]"),
    Case("squeeze-non-unit-dim", lambda e: tf.squeeze(e.c12, axis=[1]), ValueError, "dim[1]"),
    Case("slice-past-the-end", lambda e: tf.slice(e.c3, [0], [5]), ValueError, "limit_indices"),
    Case("split-uneven", lambda e: tf.split(e.c3, 2), ValueError, "num_split 2"),
    Case("matmul-shapes", lambda e: tf.matmul(e.c12, e.c12), ValueError, "MatMul"),
    Case("add-dtype-mismatch", lambda e: tf.add(e.i, e.c3), TypeError, "AddV2"),
    Case("placeholder-negative-dim", lambda e: tf.placeholder(tf.float32, [-2]), ValueError, "-2"),
    Case("fill-negative-dim", lambda e: tf.fill([2, -3], 1.0), ValueError, "-3"),
    Case("range-zero-delta", lambda e: tf.range(0, 10, 0), ValueError, "delta"),
    Case("cast-unknown-dtype", lambda e: tf.cast(e.c3, "floatz"), TypeError, "floatz"),
    Case("one-hot-float-indices", lambda e: tf.one_hot(e.c3, 3), TypeError, "float32"),
    Case("invalid-node-name", lambda e: tf.constant(1.0, name="bad name!"), ValueError, "bad name!"),
    Case("assign-wrong-shape", lambda e: e.v.assign(np.zeros(3, np.float32)), ValueError, "'v'"),
    # -- sessions: strategies, constructors, jit, detach, track
    Case("strategy-unknown-name", lambda e: tf.Session(graph=e.graph, cleanup="SOMETIMES"), ValueError, "SOMETIMES"),
    Case("strategy-typo", lambda e: EagerSession(cleanup="in_backgroud"), ValueError, "in_backgroud"),
    Case("strategy-int", lambda e: EagerSession(cleanup=3), ValueError, "3"),
    Case("strategy-none", lambda e: tf.Session(graph=e.graph, cleanup=None), ValueError, "None"),
    Case("session-remote-target", lambda e: tf.Session("grpc://localhost:2222", graph=e.graph), ValueError,
         "grpc://localhost:2222"),
    Case("session-graph-not-a-graph", lambda e: tf.Session(graph="g"), TypeError, "str"),
    Case("session-config-not-a-config", lambda e: tf.Session(graph=e.graph, config={}), TypeError, "dict"),
    Case("memory-limit-negative", lambda e: EagerSession(memory_limit_bytes=-1), ValueError, "-1"),
    Case("memory-limit-on-session-close", lambda e: EagerSession(cleanup="ON_SESSION_CLOSE", memory_limit_bytes=8),
         ValueError, "ON_SESSION_CLOSE"),
    Case("jit-int", lambda e: e.eager.jit(3), TypeError, "int"),
    Case("jit-string", lambda e: e.eager.jit("lambda x: x"), TypeError, "str"),
    Case("jit-none-graph-session", lambda e: e.sess.jit(None), TypeError, "NoneType"),
    Case("detach-non-owned", lambda e: e.eager.detach(jnp.ones(2)), ValueError, "not owned"),
    Case("detach-non-owned-in-tree", _detach_tree, ValueError, "['b']"),
    Case("detach-owned-by-other-session", _detach_others, ValueError, "not owned"),
    Case("track-owned-by-other-session", _track_others, ValueError, "bad-input-eager2"),
    # -- eager mode
    Case("placeholder-in-eager", lambda e: _eager(e, lambda: tf.placeholder(tf.float32, [2])), RuntimeError,
         "placeholder"),
    Case("graph-tensor-in-eager", lambda e: _eager(e, lambda: tf.add(e.y, 1.0)), TypeError, "y:0"),
    # -- checkpoints (the variables must keep their values: restore is all or nothing)
    Case("restore-garbage-bytes", _restore("garbage"), errors.DataLossError, "garbage.npz"),
    Case("restore-truncated-npz", _restore("truncated"), errors.DataLossError, "truncated.npz"),
    Case("restore-empty-file", _restore("empty"), errors.DataLossError, "empty.npz"),
    Case("restore-bad-crc", _restore("bad_crc"), errors.DataLossError, "CRC"),
    Case("restore-no-metadata", _restore("no_meta"), errors.DataLossError, "__jaxsess_meta__"),
    Case("restore-npy-not-npz", _restore("npy"), errors.DataLossError, ".npy"),
    Case("restore-bad-metadata", _restore("bad_meta"), errors.DataLossError, "metadata"),
    Case("restore-pickled-data", _restore("pickled"), errors.DataLossError, "pickle"),
    Case("restore-mismatched-shape", _restore("shape"), errors.InvalidArgumentError, "[3, 3]"),
    Case("restore-mismatched-dtype", _restore("dtype"), errors.InvalidArgumentError, "int32"),
    Case("restore-missing-variable", _restore("missing"), errors.NotFoundError, "Key w"),
    Case("restore-no-such-file", _restore("no_such_checkpoint"), ValueError, "no_such_checkpoint"),
    Case("restore-none-path", lambda e: e.saver.restore(e.sess, None), ValueError, "None"),
    Case("restore-into-eager-session", lambda e: e.saver.restore(e.eager, e.checkpoints["good"]), TypeError,
         "EagerSession"),
    Case("saver-of-a-tensor", lambda e: tf.train.Saver([e.y]), TypeError, "Variables"),
    Case("save-into-missing-dir", lambda e: e.saver.save(e.sess, os.path.join(e.tmp, "no", "such", "dir", "ck")),
         ValueError, "doesn't exist"),
]


def _lower(env: Env, fetches: Any, feed: Any) -> Any:
    return env.sess.lower(fetches, feed)


def _export(env: Env, fetches: Any, feeds: Any, **kw: Any) -> Any:
    return tf.export(fetches, feeds, session=env.sess, platforms=("cpu",), **kw)


# Issue 12: more feeds, fetches, callables, ops, sessions and files. The error
# classes of the TF1 cases are TF's (recorded by tests/tf1_corpus/programs/v12_bad_inputs.py).
CASES += [
    # -- feed_dict itself
    Case("feed-dict-is-a-list", lambda e: e.sess.run(e.y, [(e.x, X)]), TypeError, "'list'"),
    Case("feed-dict-is-a-set", lambda e: e.sess.run(e.y, {e.x}), TypeError, "'set'"),
    Case("feed-dict-is-an-int", lambda e: e.sess.run(e.y, 5), TypeError, "'int'"),
    Case("feed-dict-is-a-string", lambda e: e.sess.run(e.y, "x:0"), TypeError, "'str'"),
    Case("feed-dict-is-a-tuple", lambda e: e.sess.run(e.y, (e.x, X)), TypeError, "'tuple'"),
    Case("eval-feed-dict-is-a-list", lambda e: e.y.eval([(e.x, X)], session=e.sess), TypeError, "'list'"),
    # -- feed values
    Case("feed-strings-for-int", lambda e: e.sess.run(e.j, {e.i: ["a", "b"]}), ValueError, "i:0"),
    Case("feed-3d-for-2d", lambda e: e.sess.run(e.y, {e.x: np.zeros((1, 2, 3), np.float32)}), ValueError, "x:0"),
    Case("feed-long-int-vector", lambda e: e.sess.run(e.j, {e.i: [1, 2, 3]}), ValueError, "i:0"),
    Case("feed-empty-list-for-vector", lambda e: e.sess.run(e.j, {e.i: []}), ValueError, "i:0"),
    Case("feed-objects-for-int", lambda e: e.sess.run(e.j, {e.i: np.array([object(), object()])}), TypeError, "i:0"),
    Case("feed-numeric-string-for-vector", lambda e: e.sess.run(e.j, {e.i: "12"}), ValueError, "i:0"),
    Case("feed-inf-for-int", lambda e: e.sess.run(e.j, {e.i: [float("inf"), 1]}), ValueError, "i:0"),
    Case("feed-jax-array-wrong-rank", lambda e: e.sess.run(e.y, {e.x: jnp.zeros(3)}), ValueError, "x:0"),
    Case("feed-nested-list-for-vector", lambda e: e.sess.run(e.j, {e.i: [[1, 2]]}), ValueError, "i:0"),
    Case("feed-variable-as-value", lambda e: e.sess.run(e.y, {e.x: e.v}), TypeError, "x:0"),
    Case("feed-none-key", lambda e: e.sess.run(e.y, {None: X}), TypeError, "None"),
    Case("feed-float-key", lambda e: e.sess.run(e.y, {1.5: X}), TypeError, "float"),
    Case("feed-empty-name-key", lambda e: e.sess.run(e.y, {"": X}), TypeError, "feed_dict key"),
    Case("feed-foreign-name-key", lambda e: e.sess.run(e.y, {"other_x:0": X}), TypeError, "other_x:0"),
    # -- make_callable
    Case("callable-string-arg", lambda e: _callable(e, "abc"), ValueError, "x:0"),
    Case("callable-no-args", lambda e: _callable(e), TypeError, "x:0"),
    Case("callable-jax-wrong-rank", lambda e: _callable(e, jnp.zeros(3)), ValueError, "x:0"),
    Case("callable-none-arg", lambda e: _callable(e, None), ValueError, "x:0"),
    Case("callable-foreign-feed", lambda e: e.sess.make_callable(e.y, [e.other_x]), TypeError, "other_x"),
    Case("callable-foreign-fetch", lambda e: e.sess.make_callable(e.other_y), ValueError, "other_y"),
    Case("callable-int-feed", lambda e: e.sess.make_callable(e.y, [3]), TypeError, "int"),
    Case("callable-unknown-fetch-name", lambda e: e.sess.make_callable("nope:0"), ValueError, "nope:0"),
    Case("callable-missing-feed", lambda e: e.sess.make_callable(e.y)(), errors.InvalidArgumentError,
         "placeholder tensor 'x'"),
    Case("callable-uninitialized", lambda e: e.sess.make_callable(e.uninit)(), errors.FailedPreconditionError,
         "uninit"),
    # -- fetches
    Case("fetch-float", lambda e: e.sess.run(1.5), TypeError, "float"),
    Case("fetch-numpy-array", lambda e: e.sess.run(np.ones(2)), TypeError, "ndarray"),
    Case("fetch-none-in-tuple", lambda e: e.sess.run((e.y, None), {e.x: X}), TypeError, "None"),
    Case("fetch-none-nested", lambda e: e.sess.run([[e.y, [None]]], {e.x: X}), TypeError, "None"),
    Case("fetch-unknown-name-in-dict", lambda e: e.sess.run({"a": "nope:0"}), ValueError, "nope:0"),
    Case("fetch-object", lambda e: e.sess.run(object()), TypeError, "object"),
    Case("fetch-set", lambda e: e.sess.run({e.y}, {e.x: X}), TypeError, "set"),
    Case("fetch-uninitialized-in-list", lambda e: e.sess.run([e.y, e.uninit], {e.x: X}),
         errors.FailedPreconditionError, "uninit"),
    Case("fetch-missing-feed-in-dict", lambda e: e.sess.run({"a": e.y}), errors.InvalidArgumentError,
         "placeholder tensor 'x'"),
    Case("fetch-missing-int-feed", lambda e: e.sess.run(e.j), errors.InvalidArgumentError, "placeholder tensor 'i'"),
    Case("fetch-train-op-missing-feed", lambda e: e.sess.run([e.inc, e.y]), errors.InvalidArgumentError,
         "placeholder tensor 'x'"),
    Case("fetch-uninitialized-initializer-input", lambda e: e.sess.run(e.uninit + 1.0),
         errors.FailedPreconditionError, "uninit"),
    Case("op-run-without-default-session", lambda e: e.inc.op.run(), ValueError, "No default session"),
    Case("eval-with-eager-session", lambda e: e.y.eval({e.x: X}, session=e.eager), TypeError, "EagerSession"),
    # -- lower
    Case("lower-feed-dict-is-a-list", lambda e: _lower(e, e.y, [(e.x, X)]), TypeError, "'list'"),
    Case("lower-foreign-feed", lambda e: _lower(e, e.y, {e.other_x: X}), TypeError, "other_x"),
    Case("lower-struct-wrong-dtype", lambda e: _lower(e, e.y, {e.x: jax.ShapeDtypeStruct((2, 3), np.int32)}),
         ValueError, "x:0"),
    Case("lower-none-fetch", lambda e: _lower(e, None, None), TypeError, "None"),
    # -- building ops
    Case("multiply-dtype-mismatch", lambda e: tf.multiply(e.i, e.c3), TypeError, "Mul"),
    Case("subtract-incompatible-shapes", lambda e: tf.subtract(e.c3, tf.constant([1.0, 2.0])), ValueError, "Sub"),
    Case("tile-multiples-length", lambda e: tf.tile(e.c3, [1, 2]), ValueError, "Tile"),
    Case("transpose-perm-too-short", lambda e: tf.transpose(e.c12, perm=[0]), ValueError, "(0,)"),
    Case("squeeze-axis-out-of-range", lambda e: tf.squeeze(e.c12, axis=[5]), ValueError, "5"),
    Case("reduce-mean-axis-out-of-range", lambda e: tf.reduce_mean(e.c3, axis=1), ValueError, "'Mean'"),
    Case("placeholder-unknown-dtype", lambda e: tf.placeholder("floatz", [2]), TypeError, "floatz"),
    Case("zeros-negative-dim", lambda e: tf.zeros([-1, 2]), ValueError, "-1"),
    Case("variable-load-wrong-shape", lambda e: e.v.load(np.zeros(3, np.float32), e.sess), ValueError, "'v'"),
    Case("variable-load-without-session", lambda e: e.v.load(np.zeros((2, 3), np.float32)), ValueError, "session"),
    # -- eager ops
    Case("eager-graph-tensor-in-matmul", lambda e: _eager(e, lambda: tf.matmul(e.c12, e.c12)), TypeError, "c12"),
    # -- sessions
    Case("jit-list", lambda e: e.eager.jit([1]), TypeError, "list"),
    Case("jit-dict", lambda e: e.eager.jit({}), TypeError, "dict"),
    Case("strategy-float", lambda e: EagerSession(cleanup=1.5), ValueError, "1.5"),
    Case("session-mesh-not-a-mesh", lambda e: tf.Session(graph=e.graph, mesh="m"), TypeError, "str"),
    Case("memory-limit-zero", lambda e: EagerSession(memory_limit_bytes=0), ValueError, "0"),
    Case("session-local-target", lambda e: tf.Session("local", graph=e.graph), ValueError, "'local'"),
    # -- export files
    Case("load-exported-garbage", lambda e: tf.load_exported(b"junk" * 8), ValueError, "jax.export"),
    Case("load-exported-empty", lambda e: tf.load_exported(b""), ValueError, "jax.export"),
    Case("load-exported-not-bytes", lambda e: tf.load_exported("blob"), TypeError, "str"),
    Case("export-polymorphic-count", lambda e: _export(e, e.y, [e.x], polymorphic_shapes=["(b, 3)", "(c,)"]),
         ValueError, "polymorphic_shapes"),
    Case("export-uninitialized", lambda e: _export(e, e.uninit, []), errors.FailedPreconditionError, "uninit"),
    Case("export-foreign-feed", lambda e: _export(e, e.y, [e.other_x]), ValueError, "other_x"),
]


def _graph_def_cases() -> list[Case]:
    """Corrupted graph descriptions, when ``import_graph_def`` exists (a later issue)."""
    try:
        from jaxsess._core.graph._graph_def import import_graph_def
    except ImportError:
        return []
    if not hasattr(tf.Graph, "as_graph_def"):
        return []

    def load(mutate: Callable[[Any], Any]) -> Callable[[Env], Any]:
        def call(env: Env) -> Any:
            gd = tf.GraphDef.FromString(env.graph.as_graph_def().SerializeToString())
            bad = mutate(gd)
            with tf.Graph().as_default():
                return import_graph_def(gd if bad is None else bad)

        return call

    def node(gd: Any, name: str) -> Any:
        return next(n for n in gd.node if n.name == name)

    def inputs(n: Any, names: list[str]) -> None:
        del n.input[:]
        n.input.extend(names)

    return [
        Case("graph-def-not-a-proto", load(lambda gd: [gd]), TypeError, "list"),
        Case("graph-def-a-dict", load(lambda gd: {"node": []}), TypeError, "dict"),
        Case("graph-def-cycle", load(lambda gd: inputs(node(gd, "x"), ["y"])), ValueError, "cycle"),
        Case("graph-def-unknown-op", load(lambda gd: setattr(node(gd, "y"), "op", "NoSuchOp")), ValueError, "NoSuchOp"),
        Case("graph-def-missing-input", load(lambda gd: inputs(node(gd, "y"), ["gone:0"])), ValueError, "gone:0"),
        Case("graph-def-bad-dtype", load(lambda gd: setattr(node(gd, "x").attr["dtype"], "type", 20)),
             ValueError, "DT_RESOURCE"),
        Case("graph-def-duplicate-node", load(lambda gd: gd.node.add().CopyFrom(node(gd, "x"))), ValueError, "'x'"),
    ]


CASES += _graph_def_cases()


def _param(case: Case) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
    return pytest.param(case, id=case.id, marks=marks)


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 150
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input_raises_a_named_error_and_changes_nothing(env: Env, case: Case) -> None:
    before = env.snapshot()
    with env.graph.as_default(), pytest.raises(case.error) as info:
        case.call(env)
    assert case.names in str(info.value), f"{type(info.value).__name__}: {info.value}"
    env.assert_unchanged(before)
    env.assert_usable()


def test_errors_code_mapping_round_trips() -> None:
    for code in range(1, 17):
        cls = errors.exception_type_from_error_code(code)
        assert errors.error_code_from_exception_type(cls) == code
        assert cls(None, None, "m").error_code == code
    assert errors.error_code_from_exception_type(ValueError) == errors.UNKNOWN  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        errors.exception_type_from_error_code(0)
