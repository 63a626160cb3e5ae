"""Training steps per second: the jaxsess graph ``Session`` against raw JAX.

The model is the demo's (``python -m jaxsess demo``): an MLP 64-128-10 with
ReLU, softmax cross-entropy and Adam(0.01), trained on
``jaxsess.datasets.load_digits()`` with batches of 128. Both sides train on
the *same* pre-drawn batches (numpy ``float32[128, 64]`` / ``int32[128]``,
fed from the host at every step) from the *same* initial parameters (the
raw side copies the values that ``global_variables_initializer`` gave the
session).

Candidates, measured in this one process in interleaved blocks (the order
is reversed every other repeat; each block ends by waiting for the last
step's parameters), reported as medians of steps/s:

* ``raw``: a hand-written ``jax.jit`` step ``(params, opt_state, x, y) ->
  (params, opt_state)`` on ``optax.adam(0.01)`` with
  ``donate_argnums=(0, 1)``;
* ``run[STRATEGY]``: ``sess.run(train_op, {x: xb, y: yb})`` in a graph
  ``Session`` with that cleanup strategy;
* ``callable[STRATEGY]``: ``sess.make_callable(train_op, [x, y])(xb, yb)``;
* ``tf1``: ``tf.compat.v1.Session.run(train_op, feed)`` on the same model
  when ``tensorflow`` is importable (reported, no target).

The ratio reported is jaxsess steps/s / raw steps/s (target >= 0.95).
When a ``run`` ratio misses the target, ``--profile`` (on by default then)
prints where the time of one ``Session.run`` goes: the jitted plan call
alone, the Python path around it (timed by replaying the steps of
``Session.run``), and a cProfile of the hot path.

Usage: ``python benchmarks/bench_train.py [--quick] [--profile|--no-profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

import jaxsess  # noqa: E402
from jaxsess import ResourceCleanupStrategy  # noqa: E402
from jaxsess.datasets import load_digits  # noqa: E402

TARGET = 0.95
BATCH = 128
LR = 0.01
N_BATCHES = 64  # distinct pre-drawn batches, cycled


# -- the model, three ways ---------------------------------------------------------


class GraphModel:
    """The demo's MLP in a jaxsess graph."""

    def __init__(self) -> None:
        tf = jaxsess
        self.graph = g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(0)
            self.x = tf.placeholder(tf.float32, [None, 64], name="x")
            self.y = tf.placeholder(tf.int32, [None], name="y")
            self.w1 = tf.Variable(tf.truncated_normal([64, 128], stddev=0.1), name="w1")
            self.b1 = tf.Variable(tf.zeros([128]), name="b1")
            self.w2 = tf.Variable(tf.truncated_normal([128, 10], stddev=0.1), name="w2")
            self.b2 = tf.Variable(tf.zeros([10]), name="b2")
            hidden = tf.nn.relu(tf.matmul(self.x, self.w1) + self.b1)
            logits = tf.matmul(hidden, self.w2) + self.b2
            self.loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.y, logits=logits)
            )
            self.train_op = tf.train.AdamOptimizer(LR).minimize(self.loss)
            self.init = tf.global_variables_initializer()

    def session(self, strategy: ResourceCleanupStrategy) -> jaxsess.Session:
        sess = jaxsess.Session(graph=self.graph, cleanup=strategy, name=f"bench-train-{strategy.name}")
        sess.run(self.init)
        return sess

    def params(self, sess: jaxsess.Session) -> dict[str, np.ndarray]:
        vals = sess.run({"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2})
        return {k: np.array(v) for k, v in vals.items()}


def raw_loss(params: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    hidden = jax.nn.relu(x @ params["w1"] + params["b1"])
    logits = hidden @ params["w2"] + params["b2"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def make_raw_step() -> tuple[optax.GradientTransformation, Callable[..., Any]]:
    tx = optax.adam(LR)

    def step(params: Any, opt_state: Any, x: jax.Array, y: jax.Array) -> tuple[Any, Any]:
        grads = jax.grad(raw_loss)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    return tx, jax.jit(step, donate_argnums=(0, 1))


class RawTrainer:
    """Hand-written ``jax.jit`` + optax with donation; holds its own state."""

    def __init__(self, init: dict[str, np.ndarray]) -> None:
        self.tx, self.step_fn = make_raw_step()
        self.params = {k: jnp.array(v) for k, v in init.items()}
        self.opt_state = self.tx.init(self.params)

    def step(self, xb: np.ndarray, yb: np.ndarray) -> None:
        self.params, self.opt_state = self.step_fn(self.params, self.opt_state, xb, yb)

    def wait(self) -> None:
        jax.block_until_ready(self.params)


def session_state(sess: jaxsess.Session) -> list[Any]:
    """The session's variable buffers (to wait for the last step)."""
    return list(sess._state.values())


class TF1Trainer:  # pragma: no cover - needs tensorflow
    def __init__(self, tf1: Any, init: dict[str, np.ndarray]) -> None:
        self.tf1 = tf1
        g = tf1.Graph()
        with g.as_default():
            self.x = tf1.placeholder(tf1.float32, [None, 64])
            self.y = tf1.placeholder(tf1.int32, [None])
            ws = {k: tf1.Variable(v) for k, v in init.items()}
            hidden = tf1.nn.relu(tf1.matmul(self.x, ws["w1"]) + ws["b1"])
            logits = tf1.matmul(hidden, ws["w2"]) + ws["b2"]
            loss = tf1.reduce_mean(
                tf1.nn.sparse_softmax_cross_entropy_with_logits(labels=self.y, logits=logits)
            )
            self.train_op = tf1.train.AdamOptimizer(LR).minimize(loss)
            init_op = tf1.global_variables_initializer()
        self.sess = tf1.Session(graph=g)
        self.sess.run(init_op)

    def step(self, xb: np.ndarray, yb: np.ndarray) -> None:
        self.sess.run(self.train_op, {self.x: xb, self.y: yb})

    def wait(self) -> None:
        pass  # Session.run is synchronous

    def close(self) -> None:
        self.sess.close()


# -- timing ------------------------------------------------------------------------


Step = Callable[[np.ndarray, np.ndarray], Any]


def block(step: Step, wait: Callable[[], Any], batches: list[tuple[np.ndarray, np.ndarray]], n: int) -> tuple[float, float]:
    """Steps per second over ``n`` steps (waiting for the last one): by the
    wall clock, and by the CPU time of the whole process (all threads: XLA's,
    the cleaner's), which other processes on a loaded machine disturb less."""
    nb = len(batches)
    c0 = time.process_time()
    t0 = time.perf_counter()
    for i in range(n):
        xb, yb = batches[i % nb]
        step(xb, yb)
    wait()
    t1 = time.perf_counter()
    c1 = time.process_time()
    return n / (t1 - t0), n / max(c1 - c0, 1e-9)


def interleaved(
    cands: dict[str, tuple[Step, Callable[[], Any]]],
    batches: list[tuple[np.ndarray, np.ndarray]],
    n: int,
    repeats: int,
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Per candidate, the wall-clock and CPU-time rates of ``repeats`` blocks,
    interleaved round-robin (order reversed every other repeat)."""
    for step, wait in cands.values():  # compile and warm up
        block(step, wait, batches, max(20, n // 4))
    wall: dict[str, list[float]] = {k: [] for k in cands}
    cpu: dict[str, list[float]] = {k: [] for k in cands}
    names = list(cands)
    for r in range(repeats):
        order = names if r % 2 == 0 else names[::-1]
        for k in order:
            step, wait = cands[k]
            w, c = block(step, wait, batches, n)
            wall[k].append(w)
            cpu[k].append(c)
    return wall, cpu


def draw_batches(seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    data = load_digits()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(N_BATCHES):
        idx = rng.integers(0, len(data.x_train), BATCH)
        out.append((np.ascontiguousarray(data.x_train[idx]), np.ascontiguousarray(data.y_train[idx])))
    return out


def check_same_training(model: GraphModel, batches: list[Any], steps: int) -> tuple[float, float]:
    """Trains a fresh session and a raw trainer from the session's initial
    parameters on the same batches; returns both mean losses over the digits
    test set afterwards. (Parameters themselves differ by up to ~lr where a
    gradient is tiny: TF1's Adam adds epsilon before the bias correction,
    optax after it, and ``m/sqrt(v)`` of a near-zero gradient is then far
    from +-1 in one and close to it in the other.)"""
    data = load_digits()
    with model.session(ResourceCleanupStrategy.ON_SAFE_POINTS) as sess:
        raw = RawTrainer(model.params(sess))
        for i in range(steps):
            xb, yb = batches[i % len(batches)]
            sess.run(model.train_op, {model.x: xb, model.y: yb})
            raw.step(xb, yb)
        ours = float(sess.run(model.loss, {model.x: data.x_test, model.y: data.y_test}))
        theirs = float(raw_loss(raw.params, data.x_test, data.y_test))
        return ours, theirs


# -- where the time goes -------------------------------------------------------------


def breakdown(model: GraphModel, batches: list[Any], strategy: ResourceCleanupStrategy, n: int) -> None:
    """Times the parts of one ``Session.run(train_op, feed)`` on a cache hit:
    the plan's jitted function called directly on the session's state (what a
    raw step costs inside the session), the full ``run``, and a cProfile."""
    from jaxsess._core.runtime import _fetch as _fetch

    with model.session(strategy) as sess:
        feed_keys = [model.x, model.y]
        sess.run(model.train_op, {model.x: batches[0][0], model.y: batches[0][1]})
        (key, entry), = [(k, e) for k, e in sess._plans.items() if k[1] == tuple(feed_keys)]
        plan = entry[0]
        raw = RawTrainer(model.params(sess))

        def run(xb: np.ndarray, yb: np.ndarray) -> None:
            sess.run(model.train_op, {model.x: xb, model.y: yb})

        # `direct` bypasses the registry's bookkeeping: run it in its own
        # session copy so that the measured session stays consistent.
        with model.session(strategy) as side:
            side_plan_sess = side
            side.run(model.train_op, {model.x: batches[0][0], model.y: batches[0][1]})

            def direct_side(xb: np.ndarray, yb: np.ndarray) -> None:
                st = side_plan_sess._state
                donated = tuple(st[s] for s in plan.donated)
                kept = tuple(st[s] for s in plan.kept)
                _, new_state = plan.fn(donated, kept, (xb, yb))
                for slot, v in zip(plan.written, new_state):
                    st[slot] = v

            rates, _ = interleaved(
                {
                    "raw": (raw.step, raw.wait),
                    "plan.fn direct": (direct_side, lambda: jax.block_until_ready(session_state(side))),
                    "Session.run": (run, lambda: jax.block_until_ready(session_state(sess))),
                },
                batches,
                n,
                9,
            )
            # Keep the registry consistent before `side` closes: it pinned the
            # old buffers, which `direct_side` replaced without telling it.
            side._state.clear()
        med = {k: statistics.median(v) for k, v in rates.items()}
        us = {k: 1e6 / v for k, v in med.items()}
        print(f"\n  time per step, {strategy.name} (medians of 9 interleaved blocks of {n} steps):")
        print(f"    raw jax.jit + optax step:           {us['raw']:8.1f} us")
        print(f"    the plan's jitted fn, called alone: {us['plan.fn direct']:8.1f} us"
              f"  (XLA program + C++ dispatch of the session's own function)")
        print(f"    Session.run(train_op, feed):        {us['Session.run']:8.1f} us")
        print(f"    => Python path of Session.run:      {us['Session.run'] - us['plan.fn direct']:8.1f} us; "
              f"plan fn vs raw step: {us['plan.fn direct'] - us['raw']:+8.1f} us")

        # Replay the Python steps of Session.run one by one (cache hit), timing each.
        reps = 2000
        feed = {model.x: batches[0][0], model.y: batches[0][1]}
        parts: dict[str, float] = {}

        def t(label: str, fn: Callable[[], Any]) -> Any:
            t0 = time.perf_counter()
            for _ in range(reps):
                out = fn()
            parts[label] = (time.perf_counter() - t0) / reps * 1e6
            return out

        t("safe_point()", sess._registry.safe_point)
        t("Fetches(graph, train_op) (flatten fetch)", lambda: _fetch.Fetches(sess.graph, model.train_op))
        t("feed keys + plan-cache lookup", lambda: sess._plans.get(key))
        t("feed_value x2", lambda: [_fetch.feed_value(k, v) for k, v in feed.items()])
        print(f"  Python steps of Session.run, replayed alone ({reps} reps each, us per call):")
        for label, v in parts.items():
            print(f"    {label:<44} {v:8.2f}")

        attribute(sess, model, batches, plan, n_runs=3000)

        prof = cProfile.Profile()
        nprof = 2000
        prof.enable()
        for i in range(nprof):
            xb, yb = batches[i % len(batches)]
            sess.run(model.train_op, {model.x: xb, model.y: yb})
        jax.block_until_ready(session_state(sess))
        prof.disable()
        stats = pstats.Stats(prof)
        rows = []
        for (file, line, func), (_, ncalls, tt, ct, _) in stats.stats.items():  # type: ignore[attr-defined]
            rows.append((tt, ct, ncalls, f"{os.path.basename(file)}:{line}({func})"))
        rows.sort(reverse=True)
        print(f"  cProfile of Session.run(train_op, feed), {nprof} calls (us per run, profiler overhead included):")
        print(f"    {'own':>8} {'cum':>8} {'calls/run':>9}  function")
        for tt, ct, ncalls, where in rows[:14]:
            print(f"    {tt / nprof * 1e6:8.2f} {ct / nprof * 1e6:8.2f} {ncalls / nprof:9.1f}  {where}")


def attribute(sess: jaxsess.Session, model: GraphModel, batches: list[Any], plan: Any, n_runs: int) -> None:
    """Attributes the wall time of ``n_runs`` real ``Session.run(train_op, feed)``
    calls to their parts by wrapping them with timers: the plan's jitted
    function (XLA runs small CPU programs inline, so this is dispatch plus
    compute), the registry's bookkeeping of the variable buffers (``pin``,
    ``discard``, ``unpin``, ``adopt``, and ``swap_pinned`` where it exists),
    feed conversion and fetch flattening; the rest is the remaining Python of
    ``run``. Wrappers add ~0.1-0.3 us per wrapped call."""
    from jaxsess._core.runtime import _graph_session as gs

    spent: dict[str, float] = {}
    calls: dict[str, int] = {}
    pc = time.perf_counter

    def timed(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t0 = pc()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + pc() - t0
                calls[label] = calls.get(label, 0) + 1

        return wrapper

    registry = sess._registry
    patched: list[tuple[Any, str, Any, bool]] = []

    def set_attr(obj: Any, name: str, value: Any) -> None:
        try:
            setattr(obj, name, value)
        except dataclasses.FrozenInstanceError:  # a Plan is frozen: wrapped for this profile only, restored below
            object.__setattr__(obj, name, value)

    def patch(obj: Any, name: str, label: str) -> None:
        real = getattr(obj, name, None)
        if real is not None:
            own = name in vars(obj)  # else a method of the class: shadowed, then unshadowed
            patched.append((obj, name, vars(obj).get(name), own))
            set_attr(obj, name, timed(label, real))

    patch(plan, "fn", "plan's jitted function (dispatch + XLA compute)")
    for name in ("pin", "discard", "unpin", "adopt", "swap_pinned"):
        patch(registry, name, f"registry.{name} (variable-buffer bookkeeping)")
    patch(gs, "feed_value", "feed conversion (feed_value)")
    patch(gs, "Fetches", "fetch flattening (Fetches)")
    try:
        x, y, op = model.x, model.y, model.train_op
        t0 = pc()
        for i in range(n_runs):
            xb, yb = batches[i % len(batches)]
            sess.run(op, {x: xb, y: yb})
        jax.block_until_ready(session_state(sess))
        total = pc() - t0
    finally:
        for obj, name, real, own in reversed(patched):
            if own:
                set_attr(obj, name, real)
            else:
                delattr(obj, name)
    print(f"  wall time of {n_runs} Session.run(train_op, feed) calls, attributed (us per run):")
    print(f"    {'total':<58} {total / n_runs * 1e6:8.1f}")
    for label, sec in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"    {label:<58} {sec / n_runs * 1e6:8.1f}  ({calls[label] / n_runs:.0f} calls/run)")
    print(f"    {'the rest of run() (Python)':<58} {(total - sum(spent.values())) / n_runs * 1e6:8.1f}")


# -- main ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer steps and repeats (smoke run)")
    prof = p.add_mutually_exclusive_group()
    prof.add_argument("--profile", action="store_true", help="always print the time breakdown")
    prof.add_argument("--no-profile", action="store_true", help="never print the time breakdown")
    args = p.parse_args(argv)
    n, repeats = (50, 11) if args.quick else (50, 61)
    print(
        f"jaxsess {jaxsess.__version__} | jax {jax.__version__} | optax {optax.__version__} | "
        f"python {platform.python_version()} | {jax.default_backend()} x{jax.device_count()} | "
        f"{os.cpu_count()} cores | {'quick' if args.quick else 'full'}: {repeats} interleaved "
        f"repeats x {n} steps, batch {BATCH}"
    )
    batches = draw_batches()
    model = GraphModel()
    sessions = {s: model.session(s) for s in ResourceCleanupStrategy}
    init = model.params(sessions[ResourceCleanupStrategy.IN_BACKGROUND])
    for s in sessions.values():
        assert all(np.array_equal(v, init[k]) for k, v in model.params(s).items())
    ours, theirs = check_same_training(model, batches, 100)
    print(f"same training: test loss after 100 steps: jaxsess {ours:.4f}, raw optax {theirs:.4f}")

    raw = RawTrainer(init)
    cands: dict[str, tuple[Step, Callable[[], Any]]] = {"raw": (raw.step, raw.wait)}
    for strategy, sess in sessions.items():
        x, y, op = model.x, model.y, model.train_op

        def run(
            xb: np.ndarray, yb: np.ndarray, sess: jaxsess.Session = sess, x: Any = x, y: Any = y, op: Any = op
        ) -> None:
            sess.run(op, {x: xb, y: yb})

        def wait(sess: jaxsess.Session = sess) -> None:
            jax.block_until_ready(session_state(sess))

        cands[f"run[{strategy.name}]"] = (run, wait)
        cands[f"callable[{strategy.name}]"] = (sess.make_callable(op, [x, y]), wait)
    tf1_trainer = None
    try:
        import tensorflow.compat.v1 as tf1  # type: ignore[import-not-found]

        tf1.disable_eager_execution()
        tf1_trainer = TF1Trainer(tf1, init)
        cands["tf1"] = (tf1_trainer.step, tf1_trainer.wait)
    except ImportError:
        pass

    rates, cpu = interleaved(cands, batches, n, repeats)
    med = {k: statistics.median(v) for k, v in rates.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    base = med["raw"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average at the end: {load:.1f} on {os.cpu_count()} cores)")
    print()
    print(
        f"{'candidate':<26} {'steps/s':>8} {'us/step':>8} {'p10..p90 steps/s':>18} {'ratio':>6}  "
        f"{'cpu us/step':>11} {'cpu ratio':>9}  target (wall ratio)"
    )
    missed_run: list[ResourceCleanupStrategy] = []
    for k, v in med.items():
        qs = statistics.quantiles(rates[k], n=10) if len(rates[k]) >= 2 else [v] * 9
        ratio = v / base
        cratio = cmed[k] / cmed["raw"]
        mark = ""
        if k != "raw" and k != "tf1":
            ok = ratio >= TARGET
            mark = f">= {TARGET:g} {'met' if ok else 'MISSED'}"
            if not ok and k.startswith("run["):
                missed_run.append(ResourceCleanupStrategy[k[4:-1]])
        elif k == "tf1":
            mark = "(reported)"
        print(
            f"{k:<26} {v:>8.0f} {1e6 / v:>8.1f} {qs[0]:>8.0f}..{qs[-1]:<8.0f} {ratio:>6.3f}  "
            f"{1e6 / cmed[k]:>11.1f} {cratio:>9.3f}  {mark}"
        )
    if tf1_trainer is None:
        print("tf1: tensorflow is not importable here: skipped")
    else:  # pragma: no cover
        tf1_trainer.close()
    for s in sessions.values():
        s.close()

    if args.profile or (missed_run and not args.no_profile):
        print("\n== where the time of Session.run goes ==")
        for strategy in missed_run or [ResourceCleanupStrategy.IN_BACKGROUND]:
            breakdown(model, batches, strategy, n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
