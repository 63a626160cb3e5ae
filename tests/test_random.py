"""Tests of the random ops and TF1 seeding (``set_random_seed``, op seeds).

As TF1: with a graph seed or an op seed, a new session repeats the same
sequence; every run draws new values; different op seeds give different
values; unseeded ops differ between sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.ops import _philox as _philox, random_ops


def draws(t: Any, n: int = 3, graph: tf.Graph | None = None, feed: Any = None) -> list[np.ndarray]:
    """``n`` runs of ``t`` in a new session, as NumPy arrays."""
    with tf.Session(graph=graph) as s:
        return [np.asarray(s.run(t, feed)) for _ in range(n)]


OPS: dict[str, Callable[..., Any]] = {
    "normal": lambda seed=None: tf.random_normal([5], seed=seed),
    "uniform": lambda seed=None: tf.random_uniform([5], seed=seed),
    "truncated": lambda seed=None: tf.truncated_normal([5], seed=seed),
    "uniform_int": lambda seed=None: tf.random_uniform([5], 0, 1000, dtype=tf.int32, seed=seed),
    "shuffle": lambda seed=None: tf.random_shuffle(tf.constant(np.arange(20, dtype=np.int32)), seed=seed),
    "multinomial": lambda seed=None: tf.multinomial(tf.constant(np.zeros((2, 50), np.float32)), 4, seed=seed),
    "dropout": lambda seed=None: random_ops.dropout(tf.constant(np.ones(20, np.float32)), rate=0.5, seed=seed),
}


class TestSeeding:
    @pytest.mark.parametrize("kind", sorted(OPS))
    def test_graph_and_op_seed_repeat_in_a_new_session(self, kind: str) -> None:
        tf.set_random_seed(1234)
        t = OPS[kind](seed=7)
        a = draws(t)
        b = draws(t)
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)

    @pytest.mark.parametrize("kind", sorted(OPS))
    def test_each_run_draws_new_values(self, kind: str) -> None:
        tf.set_random_seed(1234)
        t = OPS[kind](seed=7)
        a = draws(t, n=4)
        assert any(not np.array_equal(a[0], x) for x in a[1:])

    def test_op_seed_alone_is_deterministic(self) -> None:
        t = tf.random_normal([4], seed=3)
        np.testing.assert_array_equal(draws(t)[2], draws(t)[2])

    def test_graph_seed_alone_is_deterministic_across_graphs(self) -> None:
        def build() -> tuple[tf.Graph, Any, Any]:
            g = tf.Graph()
            with g.as_default():
                tf.set_random_seed(42)
                a = tf.random_uniform([6])
                b = tf.random_uniform([6])
            return g, a, b

        g1, a1, b1 = build()
        g2, a2, b2 = build()
        with tf.Session(graph=g1) as s1, tf.Session(graph=g2) as s2:
            va1, vb1 = (np.asarray(v) for v in s1.run([a1, b1]))
            va2, vb2 = (np.asarray(v) for v in s2.run([a2, b2]))
        np.testing.assert_array_equal(va1, va2)
        np.testing.assert_array_equal(vb1, vb2)
        assert not np.array_equal(va1, vb1)  # two ops of one graph differ

    def test_different_op_seeds_differ(self) -> None:
        tf.set_random_seed(5)
        a = tf.random_normal([8], seed=1)
        b = tf.random_normal([8], seed=2)
        with tf.Session() as s:
            va, vb = (np.asarray(v) for v in s.run([a, b]))
        assert not np.array_equal(va, vb)

    def test_different_graph_seeds_differ(self) -> None:
        def sample(graph_seed: int) -> np.ndarray:
            g = tf.Graph()
            with g.as_default():
                tf.set_random_seed(graph_seed)
                t = tf.random_normal([8], seed=1)
            return draws(t, n=1, graph=g)[0]

        assert not np.array_equal(sample(1), sample(2))
        np.testing.assert_array_equal(sample(1), sample(1))

    def test_unseeded_ops_differ_between_sessions(self) -> None:
        t = tf.random_normal([16])
        assert not np.array_equal(draws(t, n=1)[0], draws(t, n=1)[0])

    def test_get_seed(self) -> None:
        assert tf.get_seed(None) == (None, None)
        assert tf.get_seed(3) == (random_ops.DEFAULT_GRAPH_SEED, 3)
        tf.set_random_seed(10)
        assert tf.get_seed(3) == (10, 3)
        g_seed, op_seed = tf.get_seed(None)
        assert g_seed == 10 and op_seed is not None

    def test_same_fetch_twice_in_one_run_is_one_draw(self) -> None:
        t = tf.random_normal([4], seed=1)
        with tf.Session() as s:
            a, b = (np.asarray(v) for v in s.run([t, t]))
        np.testing.assert_array_equal(a, b)

    def test_two_consumers_see_the_same_draw(self) -> None:
        t = tf.random_uniform([4], seed=1)
        d = t - t
        with tf.Session() as s:
            np.testing.assert_array_equal(s.run(d), np.zeros(4))


class TestDistributions:
    def test_random_normal_moments(self) -> None:
        t = tf.random_normal([20000], mean=3.0, stddev=2.0, seed=1)
        (x,) = draws(t, n=1)
        assert x.dtype == np.float32 and x.shape == (20000,)
        assert abs(x.mean() - 3.0) < 0.1
        assert abs(x.std() - 2.0) < 0.1

    def test_random_uniform_range(self) -> None:
        t = tf.random_uniform([10000], minval=-2.0, maxval=5.0, seed=1)
        (x,) = draws(t, n=1)
        assert x.min() >= -2.0 and x.max() < 5.0
        assert abs(x.mean() - 1.5) < 0.15

    def test_random_uniform_int(self) -> None:
        t = tf.random_uniform([5000], minval=3, maxval=7, dtype=tf.int32, seed=1)
        (x,) = draws(t, n=1)
        assert x.dtype == np.int32
        assert set(np.unique(x)) == {3, 4, 5, 6}

    def test_random_uniform_int_needs_maxval(self) -> None:
        with pytest.raises(ValueError, match="maxval"):
            tf.random_uniform([3], dtype=tf.int32)

    def test_truncated_normal_within_two_stddev(self) -> None:
        t = tf.truncated_normal([20000], mean=1.0, stddev=0.5, seed=1)
        (x,) = draws(t, n=1)
        assert x.min() >= 1.0 - 2 * 0.5 and x.max() <= 1.0 + 2 * 0.5
        assert abs(x.mean() - 1.0) < 0.05
        # The std of a unit normal truncated to [-2, 2] is 0.8796.
        assert abs(x.std() - 0.5 * 0.8796) < 0.03

    def test_random_normal_needs_float_dtype(self) -> None:
        with pytest.raises(ValueError, match="floating"):
            tf.random_normal([3], dtype=tf.int32)

    def test_shape_from_constant_tensor(self) -> None:
        t = tf.random_normal(tf.constant([2, 3]), seed=1)
        assert t.shape.as_list() == [2, 3]
        assert draws(t, n=1)[0].shape == (2, 3)

    def test_shape_must_be_static(self) -> None:
        p = tf.placeholder(tf.int32, [2])
        with pytest.raises(ValueError, match="shape"):
            tf.random_normal(p)

    def test_random_shuffle_is_a_permutation(self) -> None:
        x = np.arange(50, dtype=np.int32)
        t = tf.random_shuffle(tf.constant(x), seed=1)
        runs = draws(t, n=3)
        for r in runs:
            np.testing.assert_array_equal(np.sort(r), x)
        assert any(not np.array_equal(r, x) for r in runs)

    def test_random_shuffle_moves_rows(self) -> None:
        x = np.arange(12, dtype=np.float32).reshape(6, 2)
        t = tf.random_shuffle(tf.constant(x), seed=3)
        (r,) = draws(t, n=1)
        assert r.shape == (6, 2)
        rows = {tuple(row) for row in r}
        assert rows == {tuple(row) for row in x}

    def test_multinomial(self) -> None:
        logits = np.array([[0.0, 0.0, 50.0], [50.0, 0.0, 0.0]], np.float32)
        t = tf.multinomial(tf.constant(logits), 10, seed=1)
        assert t.shape.as_list() == [2, 10]
        assert t.dtype.is_integer  # int64, narrowed to int32 unless jax_enable_x64
        (r,) = draws(t, n=1)
        np.testing.assert_array_equal(r[0], np.full(10, 2))
        np.testing.assert_array_equal(r[1], np.zeros(10))


class TestDropout:
    def test_scales_kept_values_and_drops_about_rate(self) -> None:
        x = np.full(20000, 3.0, np.float32)
        t = random_ops.dropout(tf.constant(x), rate=0.3, seed=1)
        (r,) = draws(t, n=1)
        kept = r[r != 0]
        np.testing.assert_allclose(kept, 3.0 / 0.7, rtol=1e-6)
        assert abs((r == 0).mean() - 0.3) < 0.02

    def test_keep_prob_form(self) -> None:
        x = np.ones(20000, np.float32)
        t = random_ops.dropout(tf.constant(x), keep_prob=0.8, seed=1)
        (r,) = draws(t, n=1)
        np.testing.assert_allclose(r[r != 0], 1.25, rtol=1e-6)
        assert abs((r == 0).mean() - 0.2) < 0.02

    def test_fed_rate(self) -> None:
        rate = tf.placeholder(tf.float32, [])
        t = random_ops.dropout(tf.constant(np.ones(10000, np.float32)), rate=rate, seed=1)
        with tf.Session() as s:
            r = np.asarray(s.run(t, {rate: 0.5}))
            r0 = np.asarray(s.run(t, {rate: 0.0}))
        assert abs((r == 0).mean() - 0.5) < 0.03
        np.testing.assert_array_equal(r0, np.ones(10000))

    def test_noise_shape_broadcasts(self) -> None:
        x = np.ones((200, 8), np.float32)
        t = random_ops.dropout(tf.constant(x), rate=0.5, noise_shape=[200, 1], seed=1)
        (r,) = draws(t, n=1)
        for row in r:
            assert np.all(row == 0) or np.all(row == 2.0)
        assert 0 < (r[:, 0] == 0).sum() < 200

    def test_bad_arguments(self) -> None:
        x = tf.constant([1.0])
        with pytest.raises(ValueError, match="rate"):
            random_ops.dropout(x, rate=1.5)
        with pytest.raises(ValueError, match="exactly one"):
            random_ops.dropout(x)
        with pytest.raises(ValueError, match="exactly one"):
            random_ops.dropout(x, keep_prob=0.5, rate=0.5)


class TestRandomInControlFlow:
    def test_new_draw_per_loop_iteration(self) -> None:
        def body(i: Any, lo: Any, hi: Any) -> Any:
            r = tf.random_uniform([], seed=2)
            return i + 1, tf.minimum(lo, r), tf.maximum(hi, r)

        _, lo, hi = tf.while_loop(
            lambda i, lo, hi: i < 10, body, [tf.constant(0), tf.constant(2.0), tf.constant(-1.0)]
        )
        with tf.Session() as s:
            vlo, vhi = (float(v) for v in s.run([lo, hi]))
        assert 0.0 <= vlo < vhi < 1.0

    def test_random_op_in_cond_branch_advances(self) -> None:
        p = tf.placeholder(tf.bool, [])
        t = tf.cond(p, lambda: tf.random_normal([3], seed=1), lambda: tf.constant(np.zeros(3, np.float32)))
        with tf.Session() as s:
            a = np.asarray(s.run(t, {p: True}))
            b = np.asarray(s.run(t, {p: True}))
            z = np.asarray(s.run(t, {p: False}))
        assert not np.array_equal(a, b)
        np.testing.assert_array_equal(z, np.zeros(3))


# -- TF's Philox streams ----------------------------------------------------------


@pytest.mark.parametrize(
    ("counter", "key", "want"),
    [  # Random123's known answers for Philox4x32-10
        ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        ((0xFFFFFFFF,) * 4, (0xFFFFFFFF, 0xFFFFFFFF), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
        ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
         (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
    ],
)
def test_philox_known_answers(counter: tuple[int, ...], key: tuple[int, int], want: tuple[int, ...]) -> None:
    import jax.numpy as jnp


    out = _philox._philox(*[jnp.asarray(np.uint32(c)) for c in counter], key[0], key[1])
    assert tuple(int(o) for o in out) == want


def test_graph_seed_hands_out_op_seeds_in_order_as_tf2() -> None:
    # TF 2.21's get_seed: with a graph seed, ops without a seed get 0, 1, 2, ...
    # (a per-graph count, not the op's position); seeds are truncated to 31
    # bits and (0, 0) becomes (0, 2**31 - 1).
    with tf.Graph().as_default() as g:
        tf.set_random_seed(7)
        assert [random_ops.get_seed(None) for _ in range(3)] == [(7, 0), (7, 1), (7, 2)]
        assert random_ops.get_seed(5) == (7, 5)
        tf.constant(1.0)  # other ops do not count
        assert random_ops.get_seed(None) == (7, 3)
        g.seed = 0
        assert random_ops.get_seed(0) == (0, 2**31 - 1)
        g.seed = 2**31 + 4
        assert random_ops.get_seed(2**31) == (5, 1)
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        assert random_ops.get_seed(None) == (7, 0)  # each graph counts from 0


def test_bodies_and_branches_count_op_seeds_from_zero_as_funcgraphs() -> None:
    # Recorded with TF 2.21 (graph seed 3): a cond branch and a while body are
    # FuncGraphs counting their own seeds from 0 (two ops in one branch: 0, 1),
    # the graph's count goes on after them, and a variable's initial value made
    # inside a body counts in the graph (init_scope).
    with tf.Graph().as_default() as g:
        tf.set_random_seed(3)
        a = tf.random_normal([2])
        c = tf.cond(tf.constant(True), lambda: tf.random_uniform([2]) + tf.random_uniform([2]), lambda: tf.zeros([2]))
        made: list[Any] = []

        def body(i: Any) -> Any:
            made.append(tf.get_variable("v", [2]))
            return i + tf.cast(tf.reduce_sum(tf.random_uniform([2]) + made[0]), tf.int32) + 1

        tf.while_loop(lambda i: i < 3, body, [tf.constant(0)])
        b = tf.random_normal([2])
    seeds = {op.name: (op.attrs["seed"], op.attrs["seed2"]) for op in g.get_operations() if "seed2" in op.attrs}
    assert seeds[a.op.name] == (3, 0)
    assert seeds[b.op.name] == (3, 2)
    branch = sorted(v for k, v in seeds.items() if "branch" in k)
    assert branch == [(3, 0), (3, 1)], seeds
    assert c.dtype == tf.float32
    init = [v for k, v in seeds.items() if k.startswith("v/Initializer")]
    assert init == [(3, 1)], seeds
    body_ops = [v for k, v in seeds.items() if k.startswith("while/") and "Initializer" not in k]
    assert body_ops == [(3, 0)], seeds


def test_branch_draws_only_in_runs_that_take_it() -> None:
    # As TF: an op in a cond branch advances its stream only when the branch
    # runs, so runs that skip it do not change what the next taking run draws.
    def draws(pattern: list[bool]) -> list[np.ndarray]:
        with tf.Graph().as_default() as g:
            tf.set_random_seed(11)
            p = tf.placeholder(tf.bool, [])
            c = tf.cond(p, lambda: tf.random_uniform([4]), lambda: tf.zeros([4]))
        with tf.Session(graph=g) as s:
            return [s.run(c, {p: t}) for t in pattern]

    taken = draws([True, True])
    mixed = draws([True, False, False, True])
    np.testing.assert_array_equal(mixed[0], taken[0])
    np.testing.assert_array_equal(mixed[3], taken[1])
    assert not np.array_equal(taken[0], taken[1])
    np.testing.assert_array_equal(mixed[1], np.zeros(4, np.float32))


@pytest.mark.parametrize("kind", ["while_loop", "scan"])
def test_loop_iterations_draw_one_after_another(kind: str) -> None:
    # Iteration k of a loop draws the stream after the values iterations 0..k-1
    # drew, and the next run goes on after all of them: the values of one op
    # drawing 3 values per iteration, 4 iterations, two runs, are the op's
    # stream at 0, 3, ..., 21 (TF's order when iterations run in sequence).
    with tf.Graph().as_default() as g:
        tf.set_random_seed(5)
        if kind == "while_loop":
            ta = tf.TensorArray(tf.float32, 4)
            _, ta = tf.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t.write(i, tf.random_uniform([3]))),
                                  [tf.constant(0), ta])
            out = ta.stack()
        else:
            out = tf.scan(lambda a, e: tf.random_uniform([3]) + e, tf.zeros([4, 3]), initializer=tf.zeros([3]))
        (op,) = [o for o in g.get_operations() if o.type == "RandomUniform"]
        seed, seed2 = op.attrs["seed"], op.attrs["seed2"]
    with tf.Session(graph=g) as s:
        runs = np.concatenate([s.run(out), s.run(out)])
    want = np.stack([np.asarray(_philox.uniform(seed, seed2, np.uint32(3 * k), (3,), np.float32)) for k in range(8)])
    np.testing.assert_array_equal(runs, want)
    assert (seed, seed2) == (5, 0)


def test_seeded_ops_draw_tf_values_run_after_run() -> None:
    # Recorded with TF 2.21 (tf.raw_ops, CPU): RandomUniform(shape=[5], seed=1,
    # seed2=5), two runs of one session; RandomUniformInt(shape=[4, 3], -3,
    # 10, seed=123, seed2=4), first run.
    tf_uniform = [
        [0.19560599327087402, 0.029860854148864746, 0.3649308681488037, 0.2561500072479248, 0.7890545129776001],
        [0.18332135677337646, 0.1503920555114746, 0.41543543338775635, 0.9836404323577881, 0.08465945720672607],
    ]
    tf_int = [[1, 5, -2], [3, -3, -2], [5, 0, 5], [8, 9, 9]]
    with tf.Graph().as_default() as g:
        tf.set_random_seed(1)
        u = tf.random_uniform([5], seed=5)
        tf.set_random_seed(123)
        i = tf.random_uniform([4, 3], -3, 10, dtype=tf.int32, seed=4)
    with tf.Session(graph=g) as s:
        runs = [s.run(u), s.run(u)]
        ints = s.run(i)
    for got, want in zip(runs, tf_uniform, strict=True):
        np.testing.assert_array_equal(got, np.asarray(want, np.float32))
    np.testing.assert_array_equal(ints, np.asarray(tf_int, np.int32))


def test_uniform_unit_scaling_initializer_range() -> None:
    v = tf.get_variable("uus", [12, 3], initializer=tf.uniform_unit_scaling_initializer(factor=2.0, seed=1))
    with tf.Session() as sess:
        sess.run(v.initializer)
        val = sess.run(v)
    limit = 2.0 * np.sqrt(3 / 12)
    assert val.shape == (12, 3) and np.all(np.abs(val) <= limit) and np.abs(val).max() > limit / 2



def test_stateless_random_seed_and_dtype_errors() -> None:
    with pytest.raises(ValueError, match=r"seed must be an int32/int64 tensor of shape \[2\]"):
        tf.random.stateless_uniform([2], seed=tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"`minval` and `maxval` must be both None or not None"):
        tf.random.stateless_uniform([2], seed=[1, 2], maxval=None, dtype=tf.int64)
    with pytest.raises(TypeError, match=r"DataType int32 not in list of allowed values"):
        tf.random.stateless_normal([2], seed=[1, 2], dtype=tf.int32)
    with pytest.raises(NotImplementedError, match=r"ThreeFry"):
        tf.random.stateless_uniform([2], seed=[1, 2], alg="threefry")
