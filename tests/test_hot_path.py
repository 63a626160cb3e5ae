"""The plan-cache hit's C twin against its Python reference, on random sequences.

``Session.run``'s and ``make_callable``'s cache hit has one Python copy
(``Session._hit``, make_callable's ``runner``, ``_run_entry`` in
``jaxsess/_core/runtime/_graph_session.py``) and one C twin
(``jaxsess/_core/runtime/_hot.c``). Hypothesis drives the same random sequence of
runs, callables, feeds (fitting, converted, device arrays, wrong shapes,
missing, by name, in any order), fetch structures, errors (uninitialised
variables, bad feeds, the wrong arity, a closed session) and plan-cache
evictions (a small ``plan_cache_size``, feed shapes that recompile) through
two sessions of one graph: one called through the C path (``sess.run``, the
callables as made), one through the Python path (``Session.run.__wrapped__``,
a callable's ``__wrapped__``). After every step both must have returned the
same values (types, dtypes, shapes, bytes, ownership) or raised the same error,
and hold the same registry counters and tables, plan-cache keys in LRU order
and state. With the C extension off (``JAXSESS_C_HOT_PATH=0``) both sessions
run the Python path, and the stateless values are still checked against NumPy.
"""

from __future__ import annotations

import collections
import functools
import weakref
from collections.abc import Callable
from typing import Any

import jax
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import jaxsess as tf
from jaxsess._core.runtime import _graph_session as gs, _resources

C_BUILT = gs._c_hot is not None

# Fetchable elements: name -> (the placeholders it needs, its NumPy oracle or None: stateful).
ORACLE: dict[str, tuple[tuple[str, ...], Callable[[dict[str, np.ndarray]], Any] | None]] = {
    "a": (("x", "y"), lambda f: f["x"] * np.float32(2) + f["y"]),
    "b": (("x",), lambda f: np.float32(f["x"].sum(dtype=np.float32))),
    "c": (("y",), lambda f: f["y"] * f.get("k", np.float32(2))),
    "d": (("y",), lambda f: f["y"]),
    "e": (("z",), lambda f: f["z"] * 3.0),  # float64: an x64 plan (its entry's invoke)
    "p": (("y",), lambda f: f["y"] * np.float32(5)),  # placed on another device (invoke)
    "inc": (("y",), None),  # assign_add: a stateful plan (the entry's step)
    "step": (("y",), None),  # its operation: fetched as None
    "r": ((), None),  # a seeded random op: its counter is state
    "s": ((), None),  # reads the variable and the random op
}
ELEMENTS = list(ORACLE)
SHAPES = {"x": None, "y": (3,), "z": (2,), "k": ()}  # x is [None, 3]


@functools.cache
def _graph() -> tuple[tf.Graph, dict[str, Any]]:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = tf.placeholder(tf.float32, [3], name="y")
        z = tf.placeholder(tf.float64, [2], name="z")
        k = tf.placeholder_with_default(tf.constant(2.0), [], name="k")
        v = tf.Variable(tf.zeros([3]), name="v")
        r = tf.random_uniform([3], seed=7, name="r")
        inc = tf.assign_add(v, y, name="inc")
        with g.device("/cpu:1"):
            p = tf.multiply(y, 5.0, name="p")
        el = {
            "a": tf.add(x * 2.0, y, name="a"),
            "b": tf.reduce_sum(x, name="b"),
            "c": tf.multiply(y, k, name="c"),
            "d": tf.identity(y, name="d"),
            "e": tf.multiply(z, 3.0, name="e"),
            "p": p,
            "inc": inc,
            "step": inc.op,
            "r": r,
            "s": tf.add(v * 1.0, r, name="s"),
        }
    return g, {"elements": el, "x": x, "y": y, "z": z, "k": k, "init": v.initializer}


# -- what the sequences are made of -------------------------------------------------------

_FEED_KINDS = ["fit", "fit", "fit", "f64", "list", "jax", "bad_shape", "missing", "by_name"]

fetch_structures = st.one_of(
    st.tuples(st.just("one"), st.sampled_from(ELEMENTS)),
    st.tuples(st.just("list"), st.lists(st.sampled_from(ELEMENTS), min_size=1, max_size=3, unique=True)),
    st.tuples(st.just("dup"), st.sampled_from(ELEMENTS)),  # a list with a leaf twice
    st.tuples(st.just("tuple"), st.lists(st.sampled_from(ELEMENTS), min_size=1, max_size=3, unique=True)),
    st.tuples(st.just("dict"), st.lists(st.sampled_from(ELEMENTS), min_size=1, max_size=3, unique=True)),
    st.tuples(st.just("nested"), st.lists(st.sampled_from(ELEMENTS), min_size=2, max_size=3, unique=True)),
    st.tuples(st.just("name"), st.sampled_from(["c", "d", "b"])),
)
# What a run feeds: which placeholders (the fetches' and, maybe, k) in which order, and their values.
feed_keys = st.fixed_dictionaries({
    "extra_k": st.booleans(),
    "reverse": st.booleans(),  # feed_dict keys against the plan's (sorted) order: a permuted entry
})
feed_values_ = st.fixed_dictionaries({
    "kind": st.sampled_from(_FEED_KINDS),
    "batch": st.sampled_from([1, 2, 3]),  # each size of x's None dimension: a compiled variant
    "seed": st.integers(0, 3),
})
# A few fetch structures and feed keys per sequence, so that runs repeat and hit the plan cache.
pools = st.lists(st.tuples(fetch_structures, feed_keys), min_size=1, max_size=3)
actions = st.one_of(
    st.tuples(st.just("run"), st.integers(0, 3), feed_values_),
    st.tuples(st.just("run"), st.integers(0, 3), feed_values_),
    st.tuples(st.just("run"), st.integers(0, 3), feed_values_),
    st.tuples(st.just("make"), st.integers(0, 3), feed_values_),
    st.tuples(st.just("call"), st.integers(0, 3), feed_values_, st.sampled_from([0, 0, 0, 1])),  # 1: the wrong arity
    st.tuples(st.just("init")),
)


def _fetches(structure: tuple[str, Any], el: dict[str, Any]) -> tuple[Any, list[str]]:
    """The fetch structure, and the names of its elements."""
    kind, what = structure
    if kind == "one":
        return el[what], [what]
    if kind == "name":
        return el[what].name, [what]
    if kind == "dup":
        return [el[what], el[what]], [what]
    names = list(what)
    if kind == "list":
        return [el[n] for n in names], names
    if kind == "tuple":
        return tuple(el[n] for n in names), names
    if kind == "dict":
        return {n: el[n] for n in names}, names
    return [el[names[0]], {"rest": tuple(el[n] for n in names[1:])}], names  # nested


def _needed(names: list[str], spec: dict[str, Any]) -> list[str]:
    need = sorted({p for n in names for p in ORACLE[n][0]} | ({"k"} if spec["extra_k"] else set()))
    return need[::-1] if spec["reverse"] else need


def _value(name: str, spec: dict[str, Any]) -> np.ndarray:
    rng = np.random.default_rng(spec["seed"] * 7 + len(name))
    shape = (spec["batch"], 3) if name == "x" else SHAPES[name]
    dtype = np.float64 if name == "z" else np.float32
    return rng.standard_normal(shape).astype(dtype)


def _feed_value(name: str, spec: dict[str, Any], target: bool) -> Any:
    """A feed value of the kind asked for (``target``: the placeholder the kind applies to)."""
    value = _value(name, spec)
    kind = spec["kind"] if target else "fit"
    if kind == "f64":
        return value.astype(np.float64) if value.dtype == np.float32 else value.astype(np.float32)
    if kind == "list":
        return value.tolist()
    if kind == "jax" and name != "z":  # (a float64 jax.Array needs x64 on)
        return jax.numpy.asarray(value)
    if kind == "bad_shape":
        return np.zeros((*np.shape(value), 2), value.dtype)
    return value


def _feed_dict(need: list[str], spec: dict[str, Any], ph: dict[str, Any]) -> tuple[dict[Any, Any] | None, dict[str, Any]]:
    """The feed_dict for these placeholders (None when empty), and the fed NumPy values by name."""
    if not need:
        return None, {}
    target = need[0]
    out: dict[Any, Any] = {}
    plain: dict[str, Any] = {}
    for name in need:
        if spec["kind"] == "missing" and name == target and name != "k":
            continue
        key = ph[name].name if spec["kind"] == "by_name" and name == target else ph[name]
        out[key] = _feed_value(name, spec, name == target)
        plain[name] = _value(name, spec)
    return out, plain


# -- comparing two sessions -------------------------------------------------------------


def _norm(sess: tf.Session, out: Any) -> Any:
    """A run's value, comparable across sessions: types, dtypes, shapes, bytes, ownership."""
    if out is None:
        return None
    if isinstance(out, list | tuple):
        return (type(out).__name__, [_norm(sess, v) for v in out])
    if isinstance(out, dict):
        return ("dict", {k: _norm(sess, v) for k, v in sorted(out.items())})
    if isinstance(out, jax.Array):
        return ("jax", str(out.dtype), out.shape, np.asarray(out).tobytes(), sess.owns(out))
    if isinstance(out, np.ndarray):
        return ("ndarray", str(out.dtype), out.shape, out.tobytes(), out.flags.writeable)
    if isinstance(out, np.generic):
        return (type(out).__name__, out.tobytes())
    return (type(out).__name__, repr(out))


def _state(sess: tf.Session) -> tuple[Any, ...]:
    """The registry's counters and tables, the plan cache's keys in LRU order, the session's state."""
    reg = sess._registry
    state = {(k if not isinstance(k, tuple) else k[1]).name: np.asarray(v).tobytes() for k, v in sess._state.items()}
    return (
        reg._allocated, reg._freed, reg._live_bytes, reg._peak_bytes, reg._detached,
        len(reg._pending), len(reg._owned), len(reg._pinned),
        list(sess._plans), len(sess._drop_variants), sorted(state.items()),
    )


def _outcome(sess: tf.Session, call: Callable[[], Any]) -> Any:
    try:
        out = call()
    except Exception as e:  # the same error, with the same message
        return ("raised", type(e).__name__, str(e))
    return ("value", _norm(sess, out))


def _check_oracle(plain: dict[str, Any], outcome: Any, structure: tuple[str, Any]) -> None:
    """Stateless single fetches against NumPy."""
    kind, what = structure
    if kind != "one" or outcome[0] != "value" or ORACLE[what][1] is None:
        return
    oracle = ORACLE[what][1]
    assert oracle is not None
    want = np.asarray(oracle(plain))
    got = outcome[1]
    if got[0] in ("ndarray", "jax"):
        dtype, shape, raw = np.dtype(got[1]), got[2], got[3]
    else:  # a NumPy scalar: (its type's name, its bytes)
        dtype, shape, raw = np.dtype(got[0]), (), got[1]
    assert dtype == want.dtype, (what, dtype, want.dtype)
    np.testing.assert_allclose(np.frombuffer(raw, dtype).reshape(shape), want, rtol=1e-6)


def _python_path(sess: tf.Session) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``(run, make_callable)`` of ``sess`` through the Python reference path."""
    run = functools.partial(getattr(tf.Session.run, "__wrapped__", tf.Session.run), sess)

    def make_callable(*args: Any, **kwargs: Any) -> Any:
        f = sess.make_callable(*args, **kwargs)
        return getattr(f, "__wrapped__", f)

    return run, make_callable


def _fed(kind: str = "fit", batch: int = 1, seed: int = 0) -> dict[str, Any]:
    return {"kind": kind, "batch": batch, "seed": seed}


_PLAIN = {"extra_k": False, "reverse": False}
_REVERSED = {"extra_k": False, "reverse": True}


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@example(  # a plan compiled for a fourth feed shape past plan_cache_size: its variants are freed on a hit
    pool=[(("one", "a"), _PLAIN), (("list", ["inc", "c"]), _REVERSED)],
    seq=[("init",), *[("run", 0, _fed(batch=b)) for b in (1, 2, 3, 1, 2)], ("make", 1, _fed()),
         ("call", 0, _fed(), 0), ("run", 1, _fed("list")), ("call", 0, _fed("f64"), 0), ("call", 0, _fed(), 1)],
    device_fetches=True, cleanup="ON_SAFE_POINTS", cache_size=2,
)
@example(  # the plan's own entry evicted while an entry permuting its feeds stays (a bug this test found)
    pool=[(("one", "a"), _PLAIN), (("one", "a"), _REVERSED)],
    seq=[("run", 0, _fed()), ("run", 1, _fed()), ("init",), ("run", 0, _fed(batch=2)), ("run", 1, _fed(batch=2))],
    device_fetches=False, cleanup="ON_SESSION_CLOSE", cache_size=2,
)
@given(
    pool=pools,
    seq=st.lists(actions, min_size=4, max_size=24),
    device_fetches=st.booleans(),
    cleanup=st.sampled_from(["ON_SAFE_POINTS", "ON_SESSION_CLOSE"]),
    cache_size=st.sampled_from([2, 2, 3, 16]),  # evictions, and variants past the bound freed
)
def test_c_and_python_hit_paths_agree(pool: list[Any], seq: list[Any], device_fetches: bool, cleanup: str,
                                      cache_size: int) -> None:
    """The C path and the Python path (two sessions of one graph) give the
    same values or errors, counters, tables, LRU order and state after every
    step of a random sequence, and after ``close`` the same closed-session errors."""
    g, m = _graph()
    el = m["elements"]
    ph = {n: m[n] for n in ("x", "y", "z", "k")}
    config = tf.ConfigProto(plan_cache_size=cache_size)
    sessions = [tf.Session(graph=g, config=config, device_fetches=device_fetches, cleanup=cleanup) for _ in "cp"]
    try:
        paths = [(sessions[0].run, sessions[0].make_callable), _python_path(sessions[1])]
        callables: list[list[Any]] = [[], []]  # per path: (callable, its feed names, its structure)
        for action in [*seq, ("close",)]:
            outcomes = []
            for i, (sess, (run, make_callable)) in enumerate(zip(sessions, paths, strict=True)):
                outcomes.append(_step(action, pool, sess, run, make_callable, callables[i], el, ph, m))
                if action[0] == "close":
                    sess.close()
                    outcomes.append(_outcome(sess, lambda run=run: run(el["d"], {ph["y"]: np.ones(3, np.float32)})))
                    for f, _, _ in callables[i][:1]:
                        outcomes.append(_outcome(sess, lambda f=f: f()))
                else:
                    outcomes.append(_state(sess))
            half = len(outcomes) // 2
            assert outcomes[:half] == outcomes[half:], action
    finally:
        for sess in sessions:
            sess.close()


def _step(action: tuple[Any, ...], pool: list[Any], sess: tf.Session, run: Callable[..., Any],
          make_callable: Callable[..., Any], callables: list[Any], el: dict[str, Any], ph: dict[str, Any],
          m: dict[str, Any]) -> Any:
    """One action on one session: its outcome (a value or an error)."""
    kind = action[0]
    if kind in ("run", "make"):
        _, index, values = action
        structure, keys = pool[index % len(pool)]
        action = (kind, structure, {**keys, **values})
    if kind == "init":
        return _outcome(sess, lambda: run(m["init"]))
    if kind == "close":
        return None
    if kind == "run":
        _, structure, spec = action
        fetches, names = _fetches(structure, el)
        feed_dict, plain = _feed_dict(_needed(names, spec), spec, ph)
        outcome = _outcome(sess, lambda: run(fetches, feed_dict))
        if spec["kind"] in ("fit", "f64", "list", "jax", "by_name"):
            _check_oracle(plain, outcome, structure)
        return outcome
    if kind == "make":
        _, structure, spec = action
        fetches, names = _fetches(structure, el)
        need = _needed(names, spec)
        try:
            f = make_callable(fetches, [ph[n] for n in need])
        except Exception as e:
            return ("raised", type(e).__name__, str(e))
        callables.append((f, need, structure))
        return ("made",)
    _, index, spec, wrong_arity = action
    if not callables:
        return None
    f, need, structure = callables[index % len(callables)]
    args = [_feed_value(n, spec, i == 0) for i, n in enumerate(need)]
    if spec["kind"] == "missing" and args:
        args = args[1:]
    if wrong_arity:
        args.append(np.ones(3, np.float32))
    plain = {n: _value(n, spec) for n in need}
    outcome = _outcome(sess, lambda: f(*args))
    if spec["kind"] in ("fit", "f64", "list", "jax") and not wrong_arity:
        _check_oracle(plain, outcome, structure)
    return outcome


@pytest.mark.skipif(not C_BUILT, reason="the C hot path is off (JAXSESS_C_HOT_PATH=0)")
def test_both_paths_are_taken() -> None:
    """The property test's two sessions really take two paths: ``Session.run``
    is the C HotRun, whose ``__wrapped__`` is the Python method, and a callable
    is a HotRunner whose ``__wrapped__`` is the Python runner."""
    g, m = _graph()
    with tf.Session(graph=g) as sess:
        f = sess.make_callable(m["elements"]["d"], [m["y"]])
        assert type(tf.Session.run).__name__ == "HotRun" and tf.Session.run.__wrapped__.__name__ == "run"
        assert type(f).__name__ == "HotRunner" and f.__wrapped__.__name__ == "runner"


# -- session.wrap / session.jit of a fresh callable: WrapCall (_hot_wrap.c) against `call` ---------------------------

# Output structures of the wrapped functions: one array, pytrees of arrays
# (exact dicts, lists, tuples and None, whose leaves the C twin collects
# itself; a namedtuple and a tree deeper than its limit, which jax flattens; more
# leaves than its stack holds), a non-array leaf (the Python own_fresh),
# nothing owned, new shapes (an aval the size cache has not seen yet: the
# Python path fills it).
_Pair = collections.namedtuple("_Pair", ["p", "q"])


def _deep(v: Any) -> Any:
    t: Any = v + 5.0
    for _ in range(70):
        t = (t,)
    return t


_WRAP_OUTPUTS: dict[str, Callable[[Any], Any]] = {
    "one": lambda v: v * 2.0,
    "tuple": lambda v: (v + 1.0, v * 3.0),
    "dict": lambda v: {"a": v + 1.0, "b": [v * 2.0, v.sum()]},
    "nested": lambda v: {"a": None, "b": ((v + 1.0,), [None, {"c": v * 2.0}]), "d": []},
    "named": lambda v: _Pair(v + 1.0, {"r": v * 4.0}),
    "deep": _deep,
    "many": lambda v: tuple(v * float(k) for k in range(40)),
    "nonarray": lambda v: (v + 1.0, 7),
    "empty": lambda v: (),
    "wide": lambda v: (jax.numpy.tile(v, 4), v[:1]),
    "bad": lambda v: v + jax.numpy.ones(5),  # a TypeError from tracing (incompatible shapes)
}
_wrap_actions = st.one_of(
    st.tuples(st.just("call"), st.sampled_from(sorted(_WRAP_OUTPUTS)), st.booleans()),  # keep the result?
    st.tuples(st.just("drop"), st.integers(0, 7)),
    st.tuples(st.just("kwargs"), st.sampled_from(["one", "dict"])),
    st.tuples(st.just("stats")),
    # An array waiting in the registry's pending list: the next safe point enters it.
    st.tuples(st.just("pending")),
)


def _wrap_state(sess: Any, kept: list[Any]) -> Any:
    reg = sess._registry
    # Before stats() enters them: what the safe points left pending (ON_SAFE_POINTS
    # and ON_SESSION_CLOSE: no thread enters them meanwhile).
    waiting = None if reg.strategy.name == "IN_BACKGROUND" else (len(reg._pending), len(reg._batches))
    st_ = sess.stats()
    return (
        waiting,
        st_.live_buffers, st_.live_bytes, st_.peak_bytes, st_.allocated_buffers, st_.freed_buffers,
        sorted((h.producer, h.shape, h.dtype, h.arrays, h.bytes) for h in st_.held),
        [sess.owns(a) for a in kept], reg._pressure, reg.inflight, len(reg._owned),
    )


@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    seq=st.lists(_wrap_actions, min_size=3, max_size=20),
    cleanup=st.sampled_from(["IN_BACKGROUND", "ON_SAFE_POINTS", "ON_SESSION_CLOSE"]),
    limit=st.sampled_from([None, 40, 4000]),
    jit=st.booleans(),
)
def test_c_and_python_wrap_calls_agree(seq: list[Any], cleanup: str, limit: int | None, jit: bool) -> None:
    """``session.jit(f)`` / ``session.wrap(jax.jit(f))`` called through the C
    twin (``WrapCall``) and through its Python ``call`` (``_python``), in two
    sessions: the same values or errors, the same stats, owned set, budget
    pressure and in-flight list after every step, and the same closed-session
    error and deletions after ``close``."""
    from jaxsess._core.runtime._session import BaseSession

    if cleanup != "ON_SAFE_POINTS":  # the budget's pressure: IN_BACKGROUND's cleaner lifts it when it runs
        limit = None
    sessions = [BaseSession(cleanup=cleanup, memory_limit_bytes=limit) for _ in "cp"]
    x = jax.numpy.arange(3.0)
    try:
        fns: list[dict[str, Any]] = []
        for i, sess in enumerate(sessions):
            made = {k: sess.jit(f) if jit else sess.wrap(jax.jit(f)) for k, f in _WRAP_OUTPUTS.items()}
            if i == 1:  # the Python reference path
                made = {k: getattr(f, "_python", f) for k, f in made.items()}
            fns.append(made)
        if C_BUILT:
            assert type(fns[0]["one"]).__name__ == "WrapCall"
        kept: list[list[Any]] = [[], []]
        for action in [*seq, ("close",)]:
            outcomes = []
            for i, sess in enumerate(sessions):
                kind = action[0]
                if kind == "call":
                    outcome = _outcome_wrap(sess, lambda f=fns[i][action[1]]: f(x))
                    if action[2] and outcome[0] == "ok":
                        kept[i].append(outcome[1])
                elif kind == "kwargs":
                    outcome = _outcome_wrap(sess, lambda f=fns[i][action[1]]: f(v=x))
                elif kind == "pending":
                    sess._registry._pending.append(jax.numpy.arange(2.0) + 1.0)
                    outcome = None
                elif kind == "drop":
                    if kept[i]:
                        del kept[i][action[1] % len(kept[i])]
                    outcome = None
                elif kind == "close":
                    leaves = [a for t in kept[i] for a in jax.tree_util.tree_leaves(t) if isinstance(a, jax.Array)]
                    sess.close()
                    outcome = (_outcome_wrap(sess, lambda i=i: fns[i]["one"](x)), [a.is_deleted() for a in leaves],
                               x.is_deleted())
                else:
                    outcome = None
                leaves = [a for t in kept[i] for a in jax.tree_util.tree_leaves(t) if isinstance(a, jax.Array)]
                outcomes.append((_describe_wrap(outcome), _wrap_state(sess, leaves) if kind != "close" else None))
            assert outcomes[0] == outcomes[1], action
    finally:
        for sess in sessions:
            sess.close()


def _outcome_wrap(sess: Any, f: Callable[[], Any]) -> Any:
    try:
        return ("ok", f())
    except Exception as e:
        return ("raised", type(e).__name__, str(e), type(e.__cause__).__name__)


def _describe_wrap(outcome: Any) -> Any:
    if not isinstance(outcome, tuple) or not outcome or outcome[0] != "ok":
        return outcome
    return ("ok", jax.tree_util.tree_structure(outcome[1]),
            [(np.asarray(a).tobytes(), str(np.asarray(a).dtype)) for a in jax.tree_util.tree_leaves(outcome[1])])


@pytest.mark.skipif(not C_BUILT, reason="the C hot path is off (JAXSESS_C_HOT_PATH=0)")
def test_wrap_of_a_fresh_callable_is_the_c_twin() -> None:
    """``session.jit`` and ``session.wrap(jax.jit(f))`` give a ``WrapCall``
    under every strategy, whose ``_python`` is the Python ``call`` and
    whose ``__wrapped__`` is the callable; non-fresh callables keep the
    Python function."""
    from jaxsess._core.runtime._session import BaseSession

    with BaseSession(cleanup="ON_SAFE_POINTS") as s:
        f = s.jit(lambda v: v + 1.0)
        j = jax.jit(lambda v: v * 2.0)
        w = s.wrap(j)
        assert type(f).__name__ == "WrapCall" and type(w).__name__ == "WrapCall" and w.__wrapped__ is j
        assert w.__name__ == "<lambda>" and w._python.__name__ == "call"  # update_wrapper on the C twin
        assert type(s.wrap(lambda v: v)).__name__ == "function"
    with BaseSession(cleanup="ON_SESSION_CLOSE") as s:
        assert type(s.jit(lambda v: v + 1.0)).__name__ == "WrapCall"


# -- the owned table: OwnedTable (_hot_owned.c) against _OwnedDict ------------------------------------------------

_table_ops = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 59), st.integers(0, 1 << 40), st.sampled_from(["f", "g"])),
    st.tuples(st.just("pop"), st.integers(0, 59)),
    st.tuples(st.just("del"), st.integers(0, 59)),
    st.tuples(st.just("get"), st.integers(0, 59)),
    st.tuples(st.just("count"), st.sampled_from(["allocated", "freed", "live", "peak"]), st.integers(-5, 1 << 40)),
    st.tuples(st.just("clear")),
)


@pytest.mark.skipif(not C_BUILT, reason="the C extension is not built (its Python twin is the reference)")
@settings(deadline=None, max_examples=60)
@given(ops=st.lists(_table_ops, max_size=120))
def test_c_owned_table_behaves_as_the_python_dict(ops: list[Any]) -> None:
    """The C owned table and its Python twin, given the same operations on
    keys that collide in its open addressing (60 weak references), hold the
    same entries and counters and answer every lookup alike."""
    class Obj:
        pass

    objs = [Obj() for _ in range(60)]
    refs = [weakref.ref(o) for o in objs]
    tables: list[Any] = [gs._c_hot.OwnedTable(), _resources._OwnedDict()]
    for op in ops:
        answers = []
        for t in tables:
            try:
                if op[0] == "set":
                    r = refs[op[1]]
                    t[id(r)] = (r, op[2], op[3])
                    answers.append(None)
                elif op[0] == "pop":
                    answers.append(t.pop(id(refs[op[1]]), None))
                elif op[0] == "del":
                    del t[id(refs[op[1]])]
                    answers.append(None)
                elif op[0] == "get":
                    k = id(refs[op[1]])
                    answers.append((t.get(k), k in t, t.get(k, "absent")))
                elif op[0] == "count":
                    setattr(t, op[1], op[2])
                    answers.append(getattr(t, op[1]))
                else:
                    t.clear()
                    answers.append(None)
            except KeyError as e:
                answers.append(("KeyError", e.args))
        assert answers[0] == answers[1], op
        c, p = tables
        assert len(c) == len(p) and bool(c) == bool(p)
        assert sorted(c.items(), key=lambda kv: kv[0]) == sorted(p.items(), key=lambda kv: kv[0])
        assert sorted(c.keys()) == sorted(p.keys()) == sorted(c)
        assert sorted(map(id, (e[0] for e in c.values()))) == sorted(map(id, (e[0] for e in p.values())))
        assert [getattr(c, n) for n in ("allocated", "freed", "live", "peak")] == [
            getattr(p, n) for n in ("allocated", "freed", "live", "peak")
        ]
    with pytest.raises(ValueError, match=r"id\(ref\)"):
        tables[0][id(refs[0]) + 16] = (refs[0], 1, "f")  # an entry under another key than its ref's id
    tables[0].update([(id(refs[1]), (refs[1], 8, "u"))])
    assert tables[0][id(refs[1])] == (refs[1], 8, "u")


@pytest.mark.skipif(not C_BUILT, reason="the C extension is not built")
def test_c_owned_table_keeps_every_entry_through_deletions() -> None:
    """Thousands of entries entered, every third deleted, the rest looked up:
    deletion in the open-addressing table (backward shift) loses no entry,
    and the table empties to nothing."""
    class Obj:
        pass

    objs = [Obj() for _ in range(3000)]
    refs = [weakref.ref(o) for o in objs]
    t: Any = gs._c_hot.OwnedTable()
    for i, r in enumerate(refs):
        t[id(r)] = (r, i, "p")
    for i in range(0, 3000, 3):
        assert t.pop(id(refs[i]))[1] == i
    assert len(t) == 2000
    assert all((i % 3 == 0) != (id(r) in t) for i, r in enumerate(refs))
    assert all(t[id(r)][1] == i for i, r in enumerate(refs) if i % 3)
    for i, r in enumerate(refs):
        if i % 3:
            del t[id(r)]
    assert len(t) == 0 and t.items() == [] and t.get(id(refs[1])) is None


_young_ops = st.one_of(
    st.tuples(st.just("call"), st.sampled_from([1, 3, 20]), st.integers(0, (1 << 20) - 1)),
    st.tuples(st.just("drop"), st.integers(0, 40)),
    st.tuples(st.just("pop"), st.integers(0, 40)),
    st.tuples(st.just("look"), st.integers(0, 40)),
    st.tuples(st.just("set"), st.integers(0, 40)),
    st.tuples(st.just("stats")),
    st.tuples(st.just("list")),
)


@pytest.mark.skipif(not C_BUILT, reason="the C extension is not built (its Python twin has no young entries)")
@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(_young_ops, max_size=30))
def test_young_entries_are_found_before_and_after_they_are_hashed(ops: list[Any]) -> None:
    """The C call's young entries (in no hashed slot until a lookup among
    many, or a prune that promotes survivors, hashes them): whatever calls,
    drops, lookups, pops, replacements, listings and prunes interleave, every
    live output the table still owns is found under one of its weak
    references (``in``, ``get``, ``[]``) with its size, a popped one is not,
    ``len`` counts exactly the owned live outputs once the dead are pruned,
    and close() deletes exactly the owned ones."""
    with tf.EagerSession(cleanup=tf.ResourceCleanupStrategy.ON_SAFE_POINTS) as s:
        owned = s._registry._owned
        fns = {k: s.jit(lambda v, k=k: [v + float(i) for i in range(k)]) for k in (1, 3, 20)}
        x = jax.numpy.ones(3)
        for f in fns.values():
            f(x)  # (the first call sizes its outputs in Python; the next are the C call's)
        held: list[Any] = []  # [array, popped]

        def key_of(a: Any) -> int | None:
            keys = [id(r) for r in weakref.getweakrefs(a) if id(r) in owned]
            assert len(keys) <= 1
            return keys[0] if keys else None

        for op in ops:
            if op[0] == "call":
                outs = fns[op[1]](x)
                held.extend([o, False] for i, o in enumerate(outs) if op[2] >> i & 1)
                del outs  # (the others die here)
            elif op[0] == "stats":
                s.stats()
                assert len(owned) == sum(not p for _, p in held)
            elif op[0] == "list":
                assert sorted(owned.keys()) == sorted(k for k, _ in owned.items()) == sorted(owned)
                assert len(owned.values()) == len(owned)
            elif held:
                item = held[op[1] % len(held)]
                a, popped = item
                k = key_of(a)
                assert (k is None) == popped
                if op[0] == "drop":
                    del held[op[1] % len(held)]
                elif k is not None and op[0] == "look":
                    entry = owned[k]
                    assert entry == owned.get(k) and entry[0]() is a and entry[1] == a.nbytes
                elif k is not None and op[0] == "set":
                    ref, nb, producer = owned[k]
                    owned[k] = (ref, nb + 1, "replaced")
                    assert owned.get(k) == (ref, nb + 1, "replaced")
                    owned[k] = (ref, nb, producer)
                elif k is not None and op[0] == "pop":
                    ref, nb, _ = owned.pop(k)
                    assert ref() is a and nb == a.nbytes and key_of(a) is None and owned.get(k) is None
                    item[1] = True
                del a, item  # (a dropped one dies here)
        arrays = [(a, p) for a, p in held]
    assert all(a.is_deleted() != p for a, p in arrays)
